/** aria attributes for an input described by its Field's message. */
export const described = (id: string, error: string | undefined) => ({
  id,
  'aria-invalid': error ? true : undefined,
  'aria-describedby': `${id}-msg`,
});
