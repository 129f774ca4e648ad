"""The reconciliation bench's pandas peer: the whole job from files, every check Refund Desk makes.

Reads the ledger and the service's list (payments + refunds), and makes the same decisions as
shared/recon (match.ts, two-way.ts, summary.ts): rows keyed by transaction number, the first row of a
key claims it and later ones are duplicates; then currency, amount, status both ways, refunds both
ways and the date within the tolerance, in that order; unreadable rows (amount, currency or date that
cannot be read) counted apart; the other direction: paid payments of the period no row claimed, and
refunds in the period of earlier payments. Prints one JSON line: elapsed ms (interpreter start and
imports excluded, as on every side), peak RSS, outcome counts and per-currency totals.

argv: ledger payments refunds start_ms end_ms tolerance_days exponents_json status_words_json
"""
import json
import resource
import sys
import time

import numpy as np
import pandas as pd

ledger_path, pay_path, ref_path = sys.argv[1], sys.argv[2], sys.argv[3]
start_ms, end_ms, tol = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
EXP = json.loads(sys.argv[7])
WORDS = json.loads(sys.argv[8])
DAY = 86_400_000
ZONE = 8 * 3_600_000  # the service's days (UTC+8)

t0 = time.perf_counter()
c0 = time.process_time()

# —— the ledger ——
L = pd.read_csv(ledger_path, dtype=str, keep_default_na=False)
L['line'] = np.arange(2, len(L) + 2)
exp = L['Currency'].map(EXP)
amount = pd.to_numeric(L['Amount'], errors='coerce')
day = pd.to_datetime(L['Date'], format='%Y-%m-%d', errors='coerce')
ok = amount.notna() & exp.notna() & day.notna() & (L['Transaction No'] != '')
unreadable = int((~ok).sum())
norm = L['Status'].str.lower().str.replace('[^a-z]', '', regex=True)
status = norm.map(WORDS).fillna('other').where(norm != '', 'paid')
R = pd.DataFrame(
    {
        'tx': L['Transaction No'][ok],
        'cur': L['Currency'][ok],
        'minor': np.rint(amount[ok] * np.power(10.0, exp[ok])).astype('int64'),
        'status': status[ok],
        'dayno': day[ok].values.astype('datetime64[D]').astype('int64'),
    }
)
dup = R.duplicated('tx', keep='first')

# —— the service's list ——
P = pd.read_csv(
    pay_path,
    dtype={'transactionNo': str, 'reference': str, 'currency': str, 'status': str},
    keep_default_na=False,
).drop_duplicates('transactionNo')
RF = pd.read_csv(
    ref_path,
    dtype={'transactionNo': str, 'refundTransactionNo': str, 'currency': str, 'status': str},
    keep_default_na=False,
)


def ms(col):
    t = pd.to_datetime(col.replace('', None), utc=True)
    return (t.values.astype('datetime64[ms]').astype('int64')), t.isna().values


P['created'], created_na = ms(P['createdAt'])
paid, paid_na = ms(P['paidAt'])
P['paytime'] = np.where(paid_na, P['created'], paid)
P['paytime_na'] = paid_na & created_na
RF['created'], RF['created_na'] = ms(RF['createdAt'])
counting = RF[RF['status'].isin(['success', 'pending'])]
same = counting.merge(P[['transactionNo', 'currency']], on='transactionNo', suffixes=('', '_p'))
same = same[same['currency'] == same['currency_p']]
P['refunded'] = P['transactionNo'].map(same.groupby('transactionNo')['amountMinor'].sum()).fillna(0).astype('int64')

# —— ledger → service ——
S = P[['transactionNo', 'amountMinor', 'currency', 'status', 'refunded', 'paytime', 'paytime_na']]
S.columns = ['stx', 'samt', 'scur', 'sst', 'sref', 'paytime', 'paytime_na']
F = R[~dup].merge(S, left_on='tx', right_on='stx', how='left')
found = F['stx'].notna()
scur, sst, sref = F['scur'], F['sst'], F['sref'].fillna(0)
samt = F['samt'].fillna(0)
off = F['dayno'] - np.floor_divide(F['paytime'].fillna(0) + ZONE, DAY)
dated = found & ~F['paytime_na'].fillna(True).astype(bool)
outcome = np.select(
    [
        ~found,
        F['cur'] != scur,
        F['minor'] != samt,
        (F['status'] != 'unpaid') & (sst != 'success'),
        (F['status'] == 'unpaid') & (sst == 'success'),
        (sref > 0) & (F['status'] != 'refunded'),
        (F['status'] == 'refunded') & (sref == 0),
        dated & (off.abs() > tol),
    ],
    [
        'missing_at_service',
        'currency_mismatch',
        'amount_mismatch',
        'status_mismatch',
        'status_mismatch',
        'refunded_not_in_ledger',
        'status_mismatch',
        'date_mismatch',
    ],
    'matched',
)

# —— service → ledger ——
claimed = P['transactionNo'].isin(R['tx'])
in_period = (P['created'] >= start_ms) & (P['created'] < end_ms) & ~created_na
missing = P[~claimed & in_period & (P['status'] == 'success')]
earlier = P[~claimed & ~in_period & (created_na | (P['created'] < start_ms))]
lacking = counting[
    counting['transactionNo'].isin(earlier['transactionNo'])
    & (counting['created'] >= start_ms)
    & (counting['created'] < end_ms)
    & ~counting['created_na']
]

# —— summary ——
counts = pd.Series(outcome).value_counts().to_dict()
counts['duplicate_in_ledger'] = int(dup.sum())
counts['missing_in_ledger'] = len(missing)
counts['refund_missing_in_ledger'] = len(lacking)
counts['unreadable'] = unreadable
totals = {}


def add(cur, key, values):
    for c, v in values.groupby(cur).sum().items():
        totals.setdefault(c, {'ledger': 0, 'service': 0, 'refunds': 0})[key] += int(v)


add(R['cur'], 'ledger', R['minor'].where(R['status'] != 'unpaid', 0))
add(scur[found], 'service', samt[found].where(sst[found] == 'success', 0))
add(scur[found], 'refunds', sref[found])
add(missing['currency'], 'service', missing['amountMinor'])
add(missing['currency'], 'refunds', missing['refunded'])
add(lacking['currency'], 'refunds', lacking['amountMinor'])
elapsed = (time.perf_counter() - t0) * 1000
print(
    json.dumps(
        {
            'ms': elapsed,
            'cpuMs': (time.process_time() - c0) * 1000,
            'peakMb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            'counts': {k: int(v) for k, v in counts.items() if v},
            'totals': totals,
        }
    )
)
