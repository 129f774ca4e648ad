import { expect, shotPath, test } from './fixtures';

const TOKEN = '5cbfb079f15b150122261c8537086d77a';

type BridgeFn = (input?: unknown) => Promise<unknown>;

test('Settings: Demo boot, profile validation, token set/replace/clear, test connection', async ({
  page,
  app,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const demoUrl = app.core.profiles.demoBaseUrl();
  expect(demoUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

  await page.goto(app.host.url);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByTestId('settings');
  await expect(settings.getByTestId('profile-item')).toHaveCount(1);
  await expect(settings.getByTestId('profile-item').first()).toContainText('Demo');
  await expect(settings.getByText('Active', { exact: true })).toBeVisible();
  await expect(page.getByTestId('app-info')).toContainText(/demo/i);

  // Test connection against the embedded sandbox.
  await settings.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByTestId('connection-result')).toHaveAttribute('data-verdict', 'ok');

  // Add a profile: an empty form explains every missing field.
  await settings.getByRole('button', { name: 'Add profile' }).click();
  const form = page.getByRole('form', { name: 'New profile' });
  await form.getByRole('button', { name: 'Add profile' }).click();
  await expect(form.getByTestId('error-name')).toContainText('Give the profile a name');
  await expect(form.getByTestId('error-merchantNo')).toContainText('Enter the merchant number');
  await expect(form.getByTestId('error-storeNo')).toContainText('Enter the store number');
  await expect(form.getByLabel('Profile name')).toHaveAttribute('aria-invalid', 'true');

  await form.getByLabel('Profile name').fill('Local gateway');
  await form.getByLabel('Connects to').selectOption('custom');
  await form.getByLabel('Service address').fill('http://example.com');
  await form.getByLabel('Merchant number').fill('20004x');
  await form.getByLabel('Store number').fill('300014');
  await form.getByRole('button', { name: 'Add profile' }).click();
  await expect(form.getByTestId('error-baseUrl')).toContainText('https://');
  await expect(form.getByTestId('error-merchantNo')).toContainText('digits only');
  await page.screenshot({ path: shotPath('settings-validation') });

  await form.getByLabel('Service address').fill(demoUrl!);
  await form.getByLabel('Merchant number').fill('200043');
  await form.getByRole('button', { name: 'Add profile' }).click();
  await expect(settings.getByTestId('profile-item')).toHaveCount(2);
  await expect(page.getByTestId('token-state')).toHaveText(/API token: not set/);

  // Without a token the test says so, before any network call.
  await settings.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByTestId('connection-result')).toHaveAttribute('data-verdict', 'credentials');
  await expect(page.getByTestId('connection-result')).toContainText('no API token');

  // A wrong token: the service is reachable but refuses the credentials.
  await settings.getByLabel('API token').fill('wrong-token-0000');
  await settings.getByRole('button', { name: 'Save token' }).click();
  await expect(page.getByTestId('token-state')).toHaveText(/API token: set/);
  await settings.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByTestId('connection-result')).toHaveAttribute('data-verdict', 'credentials');
  await expect(page.getByTestId('connection-result')).toContainText('000030');

  // Replace it with the right one.
  await settings.getByLabel('Replace the API token').fill(TOKEN);
  await settings.getByRole('button', { name: 'Replace token' }).click();
  await expect(settings.getByText('Token kept for this session only')).toBeVisible();
  await expect(settings.getByLabel('Replace the API token')).toHaveValue('');
  await settings.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByTestId('connection-result')).toHaveAttribute('data-verdict', 'ok');

  // The token is never readable through any bridge call, nor anywhere on the page.
  const seen = await page.evaluate(async () => {
    const bridge = (window as unknown as { refundDesk: Record<string, BridgeFn> }).refundDesk;
    const list = (await bridge['profiles.list']!()) as { value: { profiles: { id: string }[] } };
    const out: unknown[] = [list, await bridge['app.info']!(), await bridge['app.health']!()];
    for (const p of list.value.profiles) {
      out.push(await bridge['profiles.activate']!({ id: p.id }));
      out.push(await bridge['profiles.testConnection']!({ id: p.id }));
    }
    return (
      JSON.stringify(out) +
      document.documentElement.outerHTML +
      JSON.stringify({ ...sessionStorage }) +
      JSON.stringify({ ...localStorage })
    );
  });
  expect(seen).toContain('"hasToken":true');
  expect(seen).not.toContain(TOKEN);
  expect(seen).not.toContain('wrong-token-0000');

  await page.reload();
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await settings.getByRole('button', { name: /Local gateway/ }).click();
  await page.screenshot({ path: shotPath('settings') });

  // Point it somewhere nothing listens: a network problem, told apart from credentials.
  await settings.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Service address').fill('http://127.0.0.1:1');
  await page.getByRole('button', { name: 'Save changes' }).click();
  // A new address forgets the token: main never signs for a host the token was not entered for.
  await expect(page.getByTestId('token-state')).toHaveText(/API token: not set/);
  await settings.getByLabel('API token').fill(TOKEN);
  await settings.getByRole('button', { name: 'Save token' }).click();
  await expect(page.getByTestId('token-state')).toHaveText(/API token: set/);
  await settings.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByTestId('connection-result')).toHaveAttribute('data-verdict', 'network', {
    timeout: 30_000,
  });

  // Clear the token.
  page.once('dialog', (d) => void d.accept());
  await settings.getByRole('button', { name: 'Clear token' }).click();
  await expect(page.getByTestId('token-state')).toHaveText(/API token: not set/);
  expect(errors).toEqual([]);
});

test('Settings: switching the active profile switches the app mode', async ({ page, app }) => {
  await page.goto(app.host.url);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByTestId('settings');
  await settings.getByRole('button', { name: 'Add profile' }).click();
  await page.getByLabel('Profile name').fill('Live shop');
  await page.getByLabel('Connects to').selectOption('production');
  await page.getByLabel('Merchant number').fill('123456');
  await page.getByLabel('Store number').fill('654321');
  await page.getByRole('button', { name: 'Add profile' }).last().click();
  await expect(settings.getByTestId('profile-item')).toHaveCount(2);
  await settings.getByRole('button', { name: 'Make active: Live shop' }).click();
  await expect(page.getByTestId('app-info')).toContainText(/production/i);
  const info = await page.evaluate(async () =>
    (window as unknown as { refundDesk: Record<string, BridgeFn> }).refundDesk['app.info']!(),
  );
  expect(JSON.stringify(info)).toContain('"mode":"production"');
  expect(app.core.profiles.profiles.mode()).toBe('production');

  // While the embedded sandbox runs, another Demo profile can be added; its numbers are filled in.
  await settings.getByRole('button', { name: 'Add profile' }).click();
  await page.getByLabel('Profile name').fill('Demo again');
  await page.getByLabel('Connects to').selectOption('demo');
  await expect(page.getByLabel('Merchant number')).toHaveValue('200043');
  await page.getByRole('button', { name: 'Add profile' }).last().click();
  await expect(settings.getByTestId('profile-item')).toHaveCount(3);
});

test('Settings: per-currency refund limits are edited in the form, validated, and enforced by main', async ({
  page,
  app,
}) => {
  await page.goto(app.host.url);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByTestId('settings');
  await expect(settings.getByTestId('profile-limits')).toContainText('None');
  await settings.getByRole('button', { name: 'Edit', exact: true }).click();
  const form = page.getByRole('form', { name: /^Edit/ });
  await form.getByRole('button', { name: 'Add a currency limit' }).click();
  await form.getByLabel('Currency of limit 1').fill('JPY');
  await form.getByLabel('Single-refund limit 1').fill('10.5');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form.getByTestId('error-limits-0')).toContainText('JPY has no minor unit');
  await form.getByLabel('Currency of limit 1').fill('USD');
  await expect(form.getByTestId('error-limits-0')).toHaveCount(0);
  await form.getByLabel('Single-refund limit 1').fill('1.00');
  await form.getByLabel('Daily limit 1').fill('50');
  await page.screenshot({ path: shotPath('settings-limits') });
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(settings.getByTestId('profile-limits')).toHaveText('USD: 1.00 each, 50.00 a day');

  // Main enforces the limit whatever the renderer does: a 1.01 USD refund without the confirmation is refused.
  const sandbox = app.core.demoSandbox()!;
  const p = sandbox.state
    .snapshot()
    .payments.find(
      (x) =>
        x.merchantNo === '200043' && x.status === 'success' && x.currency === 'USD' && x.refunds.length === 0,
    )!;
  const profileId = app.core.profiles.profiles.active()!.id;
  const result = (await page.evaluate(
    ({ txNo, profileId }) =>
      (window as unknown as { refundDesk: Record<string, (i: unknown) => Promise<unknown>> }).refundDesk[
        'refunds.submit'
      ]!({
        profileId,
        transactionNo: txNo,
        amountMinor: 101,
        currency: 'USD',
        reasonCode: 'customer_request',
        reasonNote: '',
        confirmation: {},
      }),
    { txNo: p.transactionNo, profileId },
  )) as { ok: boolean; error?: { code: string; details?: { requires?: string[] } } };
  expect(result.ok).toBe(false);
  expect(result.error?.details?.requires).toEqual(['limit_confirmation']);
  expect(sandbox.state.snapshot().refunds.filter((r) => r.transactionNo === p.transactionNo)).toHaveLength(0);
});
