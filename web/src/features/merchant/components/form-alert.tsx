import pageStyles from '../../../components/page.module.css';

/** What failed, beside the form, announced as it appears. */
export function FormAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <div className={pageStyles.alert} role="alert">
      <p>{message}</p>
    </div>
  );
}
