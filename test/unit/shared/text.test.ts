import { describe, expect, it } from 'vitest';
import { profileInputSchema } from '../../../shared/domain/profile';
import { escapeUnsafeText, findUnsafeCharacter } from '../../../shared/domain/text';
import { reconciliationCreate } from '../../../shared/ipc/contract/reconciliation';
import { VALID_SAMPLES } from '../fuzz/hostile';
import { refundsSubmit } from '../../../shared/ipc/contract/refunds';
import { reasonProblem } from '../../../renderer/src/features/refunds/draft';
import { HIDING_CHARACTERS } from '../fuzz/hostile';

const REFUSED = HIDING_CHARACTERS;

const profile = (over: Record<string, unknown>) => ({
  name: 'Main store',
  merchantNo: '200043',
  storeNo: '300014',
  environment: 'vendor-sandbox',
  ...over,
});
const refund = (reasonNote: string) => ({
  profileId: 'P1',
  transactionNo: '297553638300708562',
  amountMinor: 100,
  currency: 'USD',
  reasonCode: 'other',
  reasonNote,
  confirmation: {},
});

const messageOf = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues.map((i) => i.message).join(' ') ?? '';

describe('names and free text refuse control and bidi-override characters', () => {
  it('profile name and operator name: every refused character, anywhere in the text', () => {
    for (const c of REFUSED) {
      for (const field of ['name', 'operatorName']) {
        const r = profileInputSchema.safeParse(profile({ [field]: `Main ${c}store` }));
        expect(r.success, `${field} with U+${c.codePointAt(0)!.toString(16)}`).toBe(false);
        expect(messageOf(r)).toMatch(
          /contains U\+[0-9A-F]{4,5} \(.+\) at character 6, which can make it read differently/,
        );
      }
    }
  });

  it('says which character and why, naming the field', () => {
    const r = profileInputSchema.safeParse(profile({ name: 'Refunds \u202e1.00' }));
    expect(messageOf(r)).toBe(
      'The profile name contains U+202E (a right-to-left override) at character 9, which can make it read differently than it is stored. Retype it without that character.',
    );
    const nul = profileInputSchema.safeParse(profile({ operatorName: 'ann\u0000' }));
    expect(messageOf(nul)).toContain('operator name contains U+0000 (a NUL character) at character 4');
  });

  it('refund notes allow line breaks and tabs, nothing else invisible', () => {
    expect(refundsSubmit.input.safeParse(refund('line one\nline two\r\n\tindented')).success).toBe(true);
    for (const c of REFUSED) {
      const r = refundsSubmit.input.safeParse(refund(`customer ${c}asked`));
      expect(r.success, `note with U+${c.codePointAt(0)!.toString(16)}`).toBe(false);
      expect(messageOf(r)).toContain('The note contains U+');
    }
  });

  it('the refund dialog shows the same message before anything is sent', () => {
    expect(reasonProblem({ reasonCode: 'other', reasonNote: 'ok \u202e' })).toEqual({
      field: 'note',
      message: expect.stringContaining('U+202E (a right-to-left override)'),
    });
    expect(reasonProblem({ reasonCode: 'other', reasonNote: 'two\nlines' })).toBeUndefined();
  });

  it('reconciliation labels refuse them; a file name is escaped visibly instead', () => {
    const sample = VALID_SAMPLES['reconciliation.create'] as { file: object };
    const run = (label: string) => ({ ...sample, label, file: { ...sample.file, name: label } });
    expect(reconciliationCreate.input.safeParse(run('ledger\u202evsc.csv')).success).toBe(false);
    const shown = escapeUnsafeText('ledger\u202evsc.csv\u0000');
    expect(shown).toBe('ledger⟨U+202E⟩vsc.csv⟨U+0000⟩');
    expect(reconciliationCreate.input.safeParse(run(shown)).success).toBe(true);
  });

  it('ordinary text in any script passes, including emoji joiners and RTL letters', () => {
    for (const name of [
      'Main store',
      'Zürich Café',
      'متجر رئيسي',
      '東京店',
      'שלום',
      'Team 👩‍💻',
      "O'Brien & Co",
    ]) {
      expect(findUnsafeCharacter(name), name).toBeUndefined();
      expect(profileInputSchema.safeParse(profile({ name })).success, name).toBe(true);
    }
  });
});
