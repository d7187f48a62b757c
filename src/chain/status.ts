import { statusInfo, type StatusInfo } from '../core/status.js';

/** A core status with its table entry; a code outside the table is a core bug, reported as failed. */
export function statusOf(code: number): Pick<StatusInfo, 'code' | 'class' | 'message'> & { name: string } {
  return statusInfo(code) ?? { name: `UNKNOWN_STATUS_${code}`, code, class: 'failed', message: `unknown core status ${code}` };
}
