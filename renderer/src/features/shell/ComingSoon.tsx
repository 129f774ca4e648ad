/** An honest placeholder for an area that is not built yet: no fake data. */
export function ComingSoon({ title, description }: { title: string; description: string }) {
  return (
    <section className="empty-state" data-testid="coming-soon">
      <h2>{title} is coming</h2>
      <p>{description}</p>
      <p className="muted">This area is not available in this version yet.</p>
    </section>
  );
}
