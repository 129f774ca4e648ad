/**
 * The operator a confirmation records, the same on every confirmation: the name main will write, and,
 * when it is this computer's account name (the profile names nobody), a note saying so.
 */
export function OperatorName({ name, fromAccount }: { name: string | undefined; fromAccount: boolean }) {
  if (!name) return <span className="rd-error">not known — set your name in Settings</span>;
  return (
    <span data-testid="operator-name">
      {name}
      {fromAccount && (
        <span className="muted small"> (this computer’s account name — set your name in Settings)</span>
      )}
    </span>
  );
}
