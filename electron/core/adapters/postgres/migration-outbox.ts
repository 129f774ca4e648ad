/**
 * Schema v5 of the team database (issue 26 items 6 and 7): what a desk writes late is written once.
 *
 * - A desk's outbox (adapters/outbox-store.ts) stamps every waiting write with a key (`onceKey` in the
 *   event's or the audit entry's data). Unique indexes refuse a second row with the same key, so an entry
 *   replayed twice — a desk killed between writing it here and deleting it locally — is written once.
 * - A desk that kept refunds in its own SQLite file before team mode imports them once
 *   (`cli team import-local`): `import_intent` inserts a resolved refund with its whole history, marked
 *   `importedFrom` (desk, file id, when), and audits the import; `import_audit` copies one of the file's
 *   audit entries, keyed by file and entry, so running the import again writes nothing. An intent that
 *   is still unresolved (sending, outcome unknown) is refused: it is resolved on its desk first.
 *
 * SQLSTATE RD050: an unresolved refund cannot be imported.
 */
export const OUTBOX_MIGRATION_SQL = `
CREATE UNIQUE INDEX audit_once ON refund_desk.audit ((data ->> 'onceKey')) WHERE data ? 'onceKey';
CREATE UNIQUE INDEX intent_events_once ON refund_desk.intent_events ((data ->> 'onceKey')) WHERE data ? 'onceKey';

-- 'imported': inserted now; 'already': imported from this file before; 'taken': another intent has the id.
CREATE FUNCTION refund_desk.import_intent(rec jsonb, events jsonb, source jsonb)
RETURNS text LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  r refund_desk.intents := jsonb_populate_record(NULL::refund_desk.intents, rec);
  existing refund_desk.intents;
  e jsonb;
BEGIN
  IF r.kind IS DISTINCT FROM 'refund' THEN
    RAISE EXCEPTION USING ERRCODE = 'RD016', MESSAGE = 'only refunds are imported from a desk''s own file';
  END IF;
  IF r.state IS NULL OR r.state NOT IN ('accepted', 'rejected', 'refused', 'succeeded', 'failed') THEN
    RAISE EXCEPTION USING ERRCODE = 'RD050', MESSAGE = format(
      'refund %s is %s: it is resolved on its own desk (check-refund) before it is imported', r.id, coalesce(r.state, 'without a state'));
  END IF;
  IF source ->> 'file' IS NULL OR source ->> 'desk' IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'an import names the desk and the file it comes from';
  END IF;
  PERFORM refund_desk.lock_payment(r);
  SELECT * INTO existing FROM refund_desk.intents WHERE id = r.id;
  IF FOUND THEN
    RETURN CASE WHEN existing.data -> 'importedFrom' ->> 'file' = source ->> 'file' THEN 'already' ELSE 'taken' END;
  END IF;
  INSERT INTO refund_desk.intents (id, kind, state, profile_id, profile_name, environment, base_url, merchant_no,
    store_no, transaction_no, reference, amount_minor, currency, settle_currency, operator, created_at, updated_at,
    sender, ret_code, ret_msg, detail, card_last4, last_check_at, last_check_found, last_check_note, checks,
    attempts, data)
  VALUES (r.id, 'refund', r.state, r.profile_id, r.profile_name, r.environment, r.base_url, r.merchant_no,
    r.store_no, r.transaction_no, r.reference, r.amount_minor, r.currency, coalesce(r.settle_currency, ''),
    r.operator, r.created_at, r.updated_at, r.sender, r.ret_code, r.ret_msg, r.detail, r.card_last4,
    r.last_check_at, r.last_check_found, r.last_check_note, coalesce(r.checks, 0), coalesce(r.attempts, 0),
    coalesce(r.data, '{}') || jsonb_build_object('importedFrom', source))
  RETURNING * INTO r;
  FOR e IN SELECT value FROM jsonb_array_elements(coalesce(events, '[]')) LOOP
    INSERT INTO refund_desk.intent_events (intent_id, at, type, from_state, to_state, data)
    VALUES (r.id, e ->> 'at', e ->> 'type', e ->> 'from', e ->> 'to', coalesce(e -> 'data', '{}'));
  END LOOP;
  PERFORM refund_desk.event_step(r, r.state, 'imported', source);
  PERFORM refund_desk.audit_step(r, 'imported', format('imported from desk %s (its own file, before team mode)',
    source ->> 'desk'), jsonb_build_object('importedFrom', source,
      'reasonCode', r.data ->> 'reasonCode', 'reasonNote', r.data ->> 'reasonNote',
      'refundTransactionNo', r.data ->> 'refundTransactionNo'));
  RETURN 'imported';
END $$;

-- One audit entry of a desk's file, once (keyed by the file and the entry's id there).
CREATE FUNCTION refund_desk.import_audit(e jsonb, source jsonb, local_id bigint)
RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  a refund_desk.audit := jsonb_populate_record(NULL::refund_desk.audit, e);
BEGIN
  IF source ->> 'file' IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'an import names the file it comes from';
  END IF;
  INSERT INTO refund_desk.audit (kind, at, outcome, operator, profile_id, profile_name, environment, subject_id,
    transaction_no, amount_minor, currency, ret_code, ret_msg, detail, data)
  VALUES (a.kind, a.at, a.outcome, a.operator, a.profile_id, a.profile_name, a.environment, a.subject_id,
    a.transaction_no, a.amount_minor, a.currency, a.ret_code, a.ret_msg, a.detail,
    coalesce(a.data, '{}') || jsonb_build_object('importedFrom', source,
      'onceKey', format('import:%s:audit:%s', source ->> 'file', local_id)))
  ON CONFLICT ((data ->> 'onceKey')) WHERE data ? 'onceKey' DO NOTHING;
  RETURN FOUND;
END $$;
`;

/** Re-applied by every migration run after TEAM_GRANTS (which revokes every function first). */
export const OUTBOX_GRANTS = `
GRANT EXECUTE ON FUNCTION refund_desk.import_intent(jsonb, jsonb, jsonb), refund_desk.import_audit(jsonb, jsonb, bigint)
  TO refund_maker, refund_checker;
`;
