import { useQuery } from '@tanstack/react-query';
import { useBridge } from '../../lib/bridge';
import { appInfoQuery } from './queries';

const MODE_LABEL = {
  demo: 'Demo (embedded sandbox)',
  'vendor-sandbox': 'Vendor sandbox',
  production: 'PRODUCTION',
  custom: 'Custom service',
  none: 'No profile yet',
} as const;

/** Version, host and environment at the foot of the navigation rail. */
export function AppInfoFooter() {
  const bridge = useBridge();
  const info = useQuery(appInfoQuery(bridge));
  if (!info.data) return <div className="rail-footer" />;
  return (
    <div className="rail-footer" data-testid="app-info">
      <div className={info.data.mode === 'production' ? 'mode mode-production' : 'mode'}>
        {MODE_LABEL[info.data.mode]}
      </div>
      <div className="muted">
        v{info.data.version} · {info.data.host === 'browser' ? 'browser host' : info.data.host}
      </div>
      <div className="muted small" title={info.data.dataDir}>
        Data: {info.data.dataDir}
      </div>
    </div>
  );
}
