/** The field groups of the schedule form: when it fires, and what it starts with which args. */
import { useMemo } from 'react';
import type { ProcessDef } from '../../api/types';
import { describedBy, Field } from '../../components/field';
import { timeZones } from './cron-preview';

/** The form fields an error of the API can point at. */
export type CronFieldName = 'name' | 'cronExpression' | 'timezone' | 'definition' | 'args';

/** The message to show beside a field, if the last save failed on it. */
export type CronErrorFor = (field: CronFieldName) => string | undefined;

interface ScheduleFieldsProps {
  expression: string;
  setExpression: (value: string) => void;
  timezone: string;
  setTimezone: (value: string) => void;
  errorFor: CronErrorFor;
}

/** The cron expression and the IANA time zone it is read in. */
export function CronScheduleFields({
  expression,
  setExpression,
  timezone,
  setTimezone,
  errorFor,
}: ScheduleFieldsProps) {
  const zones = useMemo(() => timeZones(), []);
  return (
    <>
      <Field
        id="cron-expression"
        label="Cron expression (six fields, seconds first)"
        error={errorFor('cronExpression')}
        hint="sec min hour day-of-month month day-of-week, e.g. 0 0 6 * * 1-5"
      >
        <input
          id="cron-expression"
          className="code"
          value={expression}
          onChange={(e) => setExpression(e.target.value)}
          spellCheck={false}
          {...describedBy('cron-expression', errorFor('cronExpression'), true)}
        />
      </Field>
      <Field id="cron-timezone" label="Time zone (IANA)" error={errorFor('timezone')}>
        <input
          id="cron-timezone"
          list="cron-zones"
          value={timezone}
          onChange={(e) => setTimezone(e.target.value)}
          spellCheck={false}
          {...describedBy('cron-timezone', errorFor('timezone'), false)}
        />
        <datalist id="cron-zones">
          {zones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
      </Field>
    </>
  );
}

interface PayloadFieldsProps {
  roots: readonly ProcessDef[];
  definition: string;
  setDefinition: (value: string) => void;
  argsText: string;
  setArgsText: (value: string) => void;
  argsError: string | undefined;
  errorFor: CronErrorFor;
}

/** The root definition the schedule starts and the JSON args it starts it with. */
export function CronPayloadFields(props: PayloadFieldsProps) {
  const { roots, definition, setDefinition, argsText, setArgsText, argsError, errorFor } = props;
  return (
    <>
      <Field id="cron-definition" label="Definition to start" error={errorFor('definition')}>
        <select
          id="cron-definition"
          value={definition}
          onChange={(e) => setDefinition(e.target.value)}
          {...describedBy('cron-definition', errorFor('definition'), false)}
        >
          {roots.map((d) => (
            <option key={d.processType}>{d.processType}</option>
          ))}
        </select>
      </Field>
      <Field id="cron-args" label="Args (JSON object)" error={argsError ?? errorFor('args')}>
        <textarea
          id="cron-args"
          className="code"
          rows={6}
          value={argsText}
          onChange={(e) => setArgsText(e.target.value)}
          spellCheck={false}
          {...describedBy('cron-args', argsError ?? errorFor('args'), false)}
        />
      </Field>
    </>
  );
}
