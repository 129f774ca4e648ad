import { useId } from 'react';
import { usePrefs } from './use-prefs';
import { DATE_FORMAT_LABELS, DATE_FORMATS, type DisplayPrefs, LOCALES } from './prefs';

const ZONE_LABELS: Record<DisplayPrefs['zone'], string> = {
  local: 'This computer’s time zone',
  utc: 'UTC',
  service: 'UTC+8 — the payment service’s time',
};

/** Settings → Display: theme, language and number format, time zone, date format; with a live sample. */
export function DisplaySettings() {
  const { prefs, setPrefs, format } = usePrefs();
  const uid = useId();
  const sampleAt = '2025-03-01T06:05:09.000Z';
  return (
    <section className="st-card" aria-labelledby={`${uid}-h`} data-testid="display-settings">
      <h2 id={`${uid}-h`}>Display</h2>
      <p className="st-hint">
        For this computer. Applies to every screen and to every export (CSV and Excel).
      </p>
      <div className="st-row">
        <div className="st-field">
          <label htmlFor={`${uid}-theme`}>Theme</label>
          <select
            id={`${uid}-theme`}
            value={prefs.theme}
            onChange={(e) => setPrefs({ theme: e.target.value as DisplayPrefs['theme'] })}
          >
            <option value="system">Follow the system (light or dark)</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </div>
        <div className="st-field">
          <label htmlFor={`${uid}-locale`}>Numbers and language</label>
          <select
            id={`${uid}-locale`}
            value={prefs.locale}
            onChange={(e) => setPrefs({ locale: e.target.value })}
          >
            {LOCALES.map((l) => (
              <option key={l.id} value={l.id}>
                {l.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="st-row">
        <div className="st-field">
          <label htmlFor={`${uid}-zone`}>Time zone</label>
          <select
            id={`${uid}-zone`}
            value={prefs.zone}
            onChange={(e) => setPrefs({ zone: e.target.value as DisplayPrefs['zone'] })}
            aria-describedby={`${uid}-zone-hint`}
          >
            {(Object.keys(ZONE_LABELS) as DisplayPrefs['zone'][]).map((z) => (
              <option key={z} value={z}>
                {ZONE_LABELS[z]}
              </option>
            ))}
          </select>
          <p className="st-hint" id={`${uid}-zone-hint`}>
            Sync by date always uses the service’s calendar days (UTC+8); it says so where you choose them.
          </p>
        </div>
        <div className="st-field">
          <label htmlFor={`${uid}-date`}>Date format</label>
          <select
            id={`${uid}-date`}
            value={prefs.dateFormat}
            onChange={(e) => setPrefs({ dateFormat: e.target.value as DisplayPrefs['dateFormat'] })}
          >
            {DATE_FORMATS.map((d) => (
              <option key={d} value={d}>
                {DATE_FORMAT_LABELS[d]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="st-sample" data-testid="display-sample">
        Looks like: <strong>{format.dateTime(sampleAt)}</strong> ({format.zoneLabel}) ·{' '}
        <strong>{format.money(123456789, 'USD')}</strong> · <strong>{format.money(6798000, 'IDR')}</strong>
      </p>
    </section>
  );
}
