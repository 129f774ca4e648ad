/**
 * The header table: ledgers as accountants export them in English, German, French, Spanish and Chinese
 * are mapped without a hand (the defect: "Buchungsdatum, Betrag, Währung, Transaktions-Nr" read 0 of 60
 * rows until mapped by hand). Each row is a header line as such a system writes it, and the mapping it
 * must give.
 */
import { describe, expect, it } from 'vitest';
import { parseCsvText } from '../../../shared/csv/parser';
import { detectFormats, formatsFrom, toLedgerRows } from '../../../shared/recon/ledger';
import {
  chooseMapping,
  guessMapping,
  mappingIssues,
  norm,
  omittedColumns,
  type ColumnMapping,
} from '../../../shared/recon/mapping';

const TABLE: Record<string, Array<[string[], ColumnMapping]>> = {
  English: [
    [
      ['Transaction No', 'Order ID', 'Amount', 'Currency', 'Date', 'Status', 'Refunded Amount'],
      {
        transactionNo: 'Transaction No',
        reference: 'Order ID',
        amount: 'Amount',
        currency: 'Currency',
        date: 'Date',
        status: 'Status',
        refunded: 'Refunded Amount',
      },
    ],
    [
      ['Payment ID', 'Invoice Number', 'Gross', 'Currency Code', 'Created At', 'Refund Amount'],
      {
        transactionNo: 'Payment ID',
        reference: 'Invoice Number',
        amount: 'Gross',
        currency: 'Currency Code',
        date: 'Created At',
        refunded: 'Refund Amount',
      },
    ],
  ],
  German: [
    [
      ['Buchungsdatum', 'Transaktions-Nr', 'Bestellnummer', 'Betrag', 'Währung', 'Status'],
      {
        transactionNo: 'Transaktions-Nr',
        reference: 'Bestellnummer',
        amount: 'Betrag',
        currency: 'Währung',
        date: 'Buchungsdatum',
        status: 'Status',
      },
    ],
    [
      ['Belegdatum', 'Rechnungs-Nr.', 'Transaktionsnummer', 'Bruttobetrag', 'WKZ', 'Erstattungsbetrag'],
      {
        transactionNo: 'Transaktionsnummer',
        reference: 'Rechnungs-Nr.',
        amount: 'Bruttobetrag',
        currency: 'WKZ',
        date: 'Belegdatum',
        refunded: 'Erstattungsbetrag',
      },
    ],
  ],
  French: [
    [
      ['Date de transaction', 'N° de transaction', 'N° de commande', 'Montant', 'Devise', 'Statut'],
      {
        transactionNo: 'N° de transaction',
        reference: 'N° de commande',
        amount: 'Montant',
        currency: 'Devise',
        date: 'Date de transaction',
        status: 'Statut',
      },
    ],
    [
      [
        'Numéro de facture',
        'ID de transaction',
        'Montant TTC',
        'Monnaie',
        'Date de paiement',
        'Montant remboursé',
      ],
      {
        transactionNo: 'ID de transaction',
        reference: 'Numéro de facture',
        amount: 'Montant TTC',
        currency: 'Monnaie',
        date: 'Date de paiement',
        refunded: 'Montant remboursé',
      },
    ],
  ],
  Spanish: [
    [
      ['Fecha', 'N.º de transacción', 'N.º de pedido', 'Importe', 'Moneda', 'Estado'],
      {
        transactionNo: 'N.º de transacción',
        reference: 'N.º de pedido',
        amount: 'Importe',
        currency: 'Moneda',
        date: 'Fecha',
        status: 'Estado',
      },
    ],
    [
      ['Número de factura', 'ID de transacción', 'Monto', 'Divisa', 'Fecha de pago', 'Importe reembolsado'],
      {
        transactionNo: 'ID de transacción',
        reference: 'Número de factura',
        amount: 'Monto',
        currency: 'Divisa',
        date: 'Fecha de pago',
        refunded: 'Importe reembolsado',
      },
    ],
  ],
  Chinese: [
    [
      ['日期', '交易号', '订单号', '金额', '币种', '状态'],
      {
        transactionNo: '交易号',
        reference: '订单号',
        amount: '金额',
        currency: '币种',
        date: '日期',
        status: '状态',
      },
    ],
    [
      // An online-payment statement: the refund column comes before the amount, both hold "金额".
      ['交易时间', '支付宝交易号', '商户订单号', '退款金额（元）', '订单金额（元）', '币种', '交易状态'],
      {
        transactionNo: '支付宝交易号',
        reference: '商户订单号',
        amount: '订单金额（元）',
        currency: '币种',
        date: '交易时间',
        status: '交易状态',
        refunded: '退款金额（元）',
      },
    ],
    [
      ['交易日期', '交易單號', '訂單號', '金額', '幣種'],
      {
        transactionNo: '交易單號',
        reference: '訂單號',
        amount: '金額',
        currency: '幣種',
        date: '交易日期',
      },
    ],
  ],
};

describe('the header table, per language: a ledger is mapped without a hand', () => {
  for (const [language, cases] of Object.entries(TABLE))
    describe(language, () => {
      it.each(cases)('%j', (headers, mapping) => {
        expect(guessMapping(headers)).toEqual(mapping);
        expect(mappingIssues(guessMapping(headers), headers)).toEqual([]);
      });
    });

  it('compares letters of any script, accents folded (the defect: only a–z and 0–9 were kept)', () => {
    expect(norm('Währung')).toBe('wahrung');
    expect(norm('N.º de transacción')).toBe('nodetransaccion');
    expect(norm('金额（元）')).toBe('金额元');
    expect(norm('ＡＭＯＵＮＴ')).toBe('amount');
  });

  it('the walkthrough’s German ledger: all 60 rows read (the defect: 0 read until mapped by hand)', () => {
    const lines = ['Buchungsdatum;Transaktions-Nr;Betrag;Währung'];
    for (let i = 0; i < 60; i += 1)
      lines.push(
        `${String((i % 28) + 1).padStart(2, '0')}.11.2026;29755363830070${8000 + i};12,${i % 10}0;EUR`,
      );
    const parsed = parseCsvText(lines.join('\n'));
    const mapping = chooseMapping(parsed.headers);
    const imported = toLedgerRows(parsed, mapping, formatsFrom(detectFormats(parsed, mapping)));
    expect([imported.rows.length, imported.unusable.length]).toEqual([60, 0]);
    expect(imported.rows[0]).toMatchObject({ day: '2026-11-01', amountMinor: 1200, currency: 'EUR' });
  });
});

describe('a remembered mapping that leaves out a column of the file is pointed out', () => {
  const headers = ['Transaction No', 'Order ID', 'Amount', 'Currency', 'Date'];
  it('names the column and the field it looks like (the defect: silently remembered)', () => {
    const remembered = { reference: 'Order ID', amount: 'Amount', currency: 'Currency', date: 'Date' };
    expect(chooseMapping(headers, remembered)).toBe(remembered);
    expect(omittedColumns(remembered, headers)).toEqual([
      { field: 'transactionNo', header: 'Transaction No' },
    ]);
  });
  it('says nothing when every column that looks like a field is used, or the file has none to offer', () => {
    expect(omittedColumns(guessMapping(headers), headers)).toEqual([]);
    expect(
      omittedColumns({ reference: 'Order ID', amount: 'Amount', currency: 'Currency' }, [
        'Order ID',
        'Amount',
        'Currency',
        'Notes',
      ]),
    ).toEqual([]);
  });
});
