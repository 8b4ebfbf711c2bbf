import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as sns from 'aws-cdk-lib/aws-sns';

/** Tells the topic when each alarm fires and again when it clears, so an operator knows both. */
export function notifyOnAlarm(topic: sns.ITopic | undefined, alarms: readonly cloudwatch.Alarm[]): void {
  if (!topic) return;
  const notify = new actions.SnsAction(topic);
  for (const alarm of alarms) {
    alarm.addAlarmAction(notify);
    alarm.addOkAction(notify);
  }
}
