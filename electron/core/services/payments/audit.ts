import type { RecordedEnvironment } from '../../../../shared/domain/profile';
import type { PaymentAuditEntry } from '../../../../shared/ipc/contract/payments';
import type { Clock, Logger } from '../ports';
import type { PaymentStore } from './store';

/** Who acted and for which profile: a payment context, or a payment intent (which records both). */
export interface AuditWho {
  operator: string;
  profileId: string;
  profileName: string;
  environment: RecordedEnvironment;
}

export type AuditWhat = Omit<PaymentAuditEntry, 'at' | keyof AuditWho>;

/** The entry itself (written with a transition, in its unit of work). */
export function auditEntry(at: string, who: AuditWho, what: AuditWhat): PaymentAuditEntry {
  return {
    at,
    operator: who.operator,
    profileId: who.profileId,
    profileName: who.profileName,
    environment: who.environment,
    ...what,
  };
}

/**
 * Records payments audit entries (who, what, when, the service's answer). An entry that cannot be
 * written is logged, never thrown: the audit row of an action must not hide the action's outcome.
 */
export function createPaymentAuditor(deps: { store: PaymentStore; clock: Clock; log: Logger }) {
  return async (who: AuditWho, what: AuditWhat): Promise<void> => {
    try {
      await deps.store.audit.record({
        at: new Date(deps.clock.now()).toISOString(),
        operator: who.operator,
        profileId: who.profileId,
        profileName: who.profileName,
        environment: who.environment,
        ...what,
      });
    } catch (e) {
      deps.log.error('payment.audit_failed', {
        action: what.action,
        subjectId: what.subjectId,
        error: e instanceof Error ? e.message : '',
      });
    }
  };
}
