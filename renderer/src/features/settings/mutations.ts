import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Input } from '../../../../shared/ipc/contract';
import { useCache } from '../../db/owner';
import { unwrap, useBridge } from '../../lib/bridge';
import { appKeys } from '../shell/queries';
import { profileKeys } from '../profiles/queries';

/** After any profile change: the list, the app mode (footer) and health all may differ. */
function useInvalidate() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: profileKeys.list }),
      qc.invalidateQueries({ queryKey: appKeys.info }),
      qc.invalidateQueries({ queryKey: appKeys.health }),
    ]);
}

export function useSaveProfile() {
  const bridge = useBridge();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: Input<'profiles.save'>) => unwrap(bridge['profiles.save'](input)),
    onSuccess: invalidate,
  });
}

/** Deletes a profile and what this computer cached for it (only copies of the service's data). */
export function useDeleteProfile() {
  const bridge = useBridge();
  const cache = useCache();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (id: string) => {
      const r = await unwrap(bridge['profiles.delete']({ id }));
      await cache.clearProfile(id);
      return r;
    },
    onSuccess: invalidate,
  });
}

export function useActivateProfile() {
  const bridge = useBridge();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => unwrap(bridge['profiles.activate']({ id })),
    onSuccess: invalidate,
  });
}

export function useSetToken() {
  const bridge = useBridge();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: Input<'profiles.setToken'>) => unwrap(bridge['profiles.setToken'](input)),
    onSuccess: invalidate,
  });
}

export function useClearToken() {
  const bridge = useBridge();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => unwrap(bridge['profiles.clearToken']({ id })),
    onSuccess: invalidate,
  });
}

export function useTestConnection() {
  const bridge = useBridge();
  return useMutation({ mutationFn: (id: string) => unwrap(bridge['profiles.testConnection']({ id })) });
}
