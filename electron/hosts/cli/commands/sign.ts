import { computeVerifySign } from '../../../../shared/protocol/signing';
import { type Command, EXIT, tokenFromEnv, UsageError } from '../io';

/**
 * `sign key=value ...`: prints verifySign for the given parameters, on the last line, so scripts can
 * take `tail -n 1`. Values are used exactly as typed (goodsInfo verbatim); empty values are left out,
 * as the service does. Prints neither the token, its hash, nor the string being hashed.
 */
export const signCommand: Command = {
  name: 'sign',
  summary: 'compute verifySign for request parameters',
  usage: 'sign key=value [key=value ...]   (token from REFUND_DESK_API_TOKEN)',
  async run(args, io) {
    if (args.length === 0) throw new UsageError('Give at least one key=value parameter.');
    const params: Record<string, string> = {};
    for (const arg of args) {
      const eq = arg.indexOf('=');
      if (eq <= 0) throw new UsageError(`"${arg.slice(0, 40)}" is not key=value.`);
      const key = arg.slice(0, eq);
      if (key in params) throw new UsageError(`The parameter ${key} is given twice.`);
      params[key] = arg.slice(eq + 1);
    }
    if ('verifySign' in params)
      throw new UsageError('Leave verifySign out: it is what this command computes.');
    const token = tokenFromEnv(io);
    const signed = Object.keys(params)
      .filter((k) => params[k] !== '')
      .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    const skipped = Object.keys(params).filter((k) => params[k] === '');
    io.err(
      `Signed ${signed.length} parameter(s): ${signed.join(', ')}${skipped.length ? ` (left out, empty: ${skipped.join(', ')})` : ''}`,
    );
    io.out(computeVerifySign(params, token));
    return EXIT.OK;
  },
};
