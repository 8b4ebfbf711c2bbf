import type { Topic } from '@shared/schemas/ranking';
import { formatCompact, formatExact } from '../lib/format';

/** A topic's publication, active and follower counts: on its board page and on its card. */
export function TopicStats({ topic, className }: { topic: Topic; className: string | undefined }) {
  return (
    <dl className={className}>
      <div>
        <dt>Publications</dt>
        <dd>{formatExact(topic.publicationCount)}</dd>
      </div>
      <div>
        <dt>Active</dt>
        <dd>{formatExact(topic.activeCount)}</dd>
      </div>
      <div>
        <dt>Followers</dt>
        <dd>
          <abbr title={`${formatExact(topic.totalFollowers)} followers`}>{formatCompact(topic.totalFollowers)}</abbr>
        </dd>
      </div>
    </dl>
  );
}
