import type { ButtonHTMLAttributes, Ref } from 'react';
import styles from './button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost';

export interface ButtonStyleOptions {
  variant?: ButtonVariant | undefined;
  size?: 'medium' | 'small' | undefined;
  block?: boolean | undefined;
  /** Square, icon-only (give it an aria-label). */
  iconOnly?: boolean | undefined;
  className?: string | undefined;
}

/** The class list of a button; also for links styled as buttons. */
export function buttonClassName({
  variant = 'primary',
  size = 'medium',
  block,
  iconOnly,
  className,
}: ButtonStyleOptions = {}): string {
  return [
    styles.button,
    styles[variant],
    size === 'small' && styles.small,
    block && styles.block,
    iconOnly && styles.icon,
    className,
  ]
    .filter(Boolean)
    .join(' ');
}

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & ButtonStyleOptions & { ref?: Ref<HTMLButtonElement> };

export function Button({ variant, size, block, iconOnly, className, type = 'button', ...rest }: ButtonProps) {
  return <button type={type} className={buttonClassName({ variant, size, block, iconOnly, className })} {...rest} />;
}
