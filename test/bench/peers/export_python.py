"""The exports bench's Python peers: the Transactions view's 15 columns for the same rows as
peers/list-rows.ts (makeListRows), written with Python's csv module or with xlsxwriter (constant_memory:
its streaming mode, rows written as they come), to a file. Rows are built first, as Refund Desk's list
holds them; the timed part formats every cell from its typed value (times in UTC+8 with their offset,
amounts from integer minor units) and writes the file. Memory: the peak the export adds over the rows
(VmHWM reset as it starts, less the resident size then), measured as exports.bench.ts measures Chromium's renderer.

argv: csv|xlsx rows out labels_json
"""
import csv
import datetime as dt
import json
import sys
import time

kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
LABELS = json.loads(sys.argv[4])
VENDORS = ['alipay', 'wechatpay', 'creditcard', 'paypal', 'unionpay']
CURRENCIES = ['USD', 'CNY', 'GBP', 'HKD', 'KRW']
EXP = {'USD': 2, 'CNY': 2, 'GBP': 2, 'HKD': 2, 'KRW': 0}
STATUSES = ['success', 'success', 'success', 'closed', 'failed']
UTC8 = dt.timezone(dt.timedelta(hours=8))
BASE = dt.datetime(2026, 8, 1, tzinfo=dt.timezone.utc)
FETCHED = dt.datetime(2026, 9, 1, tzinfo=dt.timezone.utc).astimezone(UTC8)
HEADERS = [
    'Transaction no.', 'Reference', 'Created (UTC+8)', 'Paid (UTC+8)', 'Status', 'Status code',
    'Refund state', 'Vendor', 'Vendor code', 'Settles in', 'Fetched (UTC+8)', 'Amount', 'Currency',
    'Refunded', 'Refundable',
]


def status_kb():
    out = {}
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith(('VmRSS:', 'VmHWM:')):
                k, v = line.split(':')
                out[k] = int(v.split()[0]) / 1024
    return out


rows = []
for i in range(n):
    st = STATUSES[i % 5]
    cur = CURRENCIES[i % 5]
    at = (BASE + dt.timedelta(minutes=i)).astimezone(UTC8)
    amount = 100 + (i * 7919) % 500_000
    rows.append((
        str(300000000000000000 + i), 'BENCH-%d' % i, at, at if st == 'success' else None,
        LABELS['status'][st], st, LABELS['refunded'], LABELS['vendor'][VENDORS[i % 5]], VENDORS[i % 5],
        'USD', FETCHED, amount, cur, 0, amount if st == 'success' else None,
    ))

with open('/proc/self/clear_refs', 'w') as f:
    f.write('5')
base = status_kb()['VmRSS']
t0 = time.perf_counter()
c0 = time.process_time()


def money(minor, cur):
    e = EXP[cur]
    if e == 0:
        return str(minor)
    sign = '-' if minor < 0 else ''
    q, r = divmod(abs(minor), 100)
    return '%s%d.%02d' % (sign, q, r)


if kind == 'csv':
    with open(out, 'w', newline='', encoding='utf-8-sig') as f:
        w = csv.writer(f)
        w.writerow(HEADERS)
        for r in rows:
            cur = r[12]
            w.writerow((
                r[0], r[1], r[2].isoformat(), r[3].isoformat() if r[3] else '', r[4], r[5], r[6], r[7],
                r[8], r[9], r[10].isoformat(), money(r[11], cur), cur, money(r[13], cur),
                money(r[14], cur) if r[14] is not None else '',
            ))
else:
    import xlsxwriter

    wb = xlsxwriter.Workbook(out, {'constant_memory': True})
    ws = wb.add_worksheet('Transactions')
    bold = wb.add_format({'bold': True})
    text = wb.add_format({'num_format': '@'})
    when = wb.add_format({'num_format': 'yyyy-mm-dd hh:mm:ss'})
    dec = {2: wb.add_format({'num_format': '#,##0.00'}), 0: wb.add_format({'num_format': '#,##0'})}
    widths = [21, 14, 20, 20, 9, 13, 15, 13, 13, 12, 20, 10, 10, 10, 12]
    for c, width in enumerate(widths):
        ws.set_column(c, c, width, text if c < 2 else when if c in (2, 3, 10) else None)
    ws.freeze_panes(1, 0)
    ws.autofilter(0, 0, 0, len(HEADERS) - 1)
    for c, h in enumerate(HEADERS):
        ws.write_string(0, c, h, bold)
    for i, r in enumerate(rows, start=1):
        cur = r[12]
        e = EXP[cur]
        scale = 10 ** e
        ws.write_string(i, 0, r[0], text)
        ws.write_string(i, 1, r[1], text)
        ws.write_datetime(i, 2, r[2].replace(tzinfo=None), when)
        if r[3] is not None:
            ws.write_datetime(i, 3, r[3].replace(tzinfo=None), when)
        for c in (4, 5, 6, 7, 8, 9):
            ws.write_string(i, c, r[c])
        ws.write_datetime(i, 10, r[10].replace(tzinfo=None), when)
        ws.write_number(i, 11, r[11] / scale, dec[e])
        ws.write_string(i, 12, cur)
        ws.write_number(i, 13, r[13] / scale, dec[e])
        if r[14] is not None:
            ws.write_number(i, 14, r[14] / scale, dec[e])
    wb.close()

elapsed = (time.perf_counter() - t0) * 1000
s = status_kb()
print(json.dumps({'ms': elapsed, 'cpuMs': (time.process_time() - c0) * 1000, 'peakMb': s['VmHWM'] - base, 'baseMb': base, 'rows': len(rows)}))
