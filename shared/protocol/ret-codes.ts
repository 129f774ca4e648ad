/** ret_code values (./README.md). Only SUCCESS is success; every other code is a rejection. */
export const RET = {
  SYSTEM_ERROR: '000000',
  API_VERSION: '000010',
  MISSING_PARAM: '000020',
  NO_RECORD: '000021',
  PARAM_CONFLICT: '000022',
  BAD_VALUE: '000023',
  ACCESS_DENIED: '000030',
  STATUS_ERROR: '000040',
  UPSTREAM_ERROR: '000080',
  SUCCESS: '000100',
} as const;
export type RetCode = (typeof RET)[keyof typeof RET];
