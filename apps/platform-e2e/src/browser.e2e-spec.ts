import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { createTestDatabase, generateTestKeyPair, type TestDatabase } from '@platform/testing';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { BrowserTestApp, type FlowResult } from './browser-test-app';
import { freePort, migrateAll, provision, RunningService, stopAll } from './service-process';

/** Generous: the first page of a cold Chromium, and services answering under a parallel `npm test`. */
const WAIT = { timeout: 20_000 };

/** Debian's chromium (CI installs it in .ci/run), or CHROMIUM_PATH. Never skipped when missing. */
function chromiumPath(): string {
  const candidates = process.env.CHROMIUM_PATH
    ? [process.env.CHROMIUM_PATH]
    : (process.env.PATH ?? '').split(delimiter).map((directory) => join(directory, 'chromium'));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not this one
    }
  }
  throw new Error(
    `The real-browser test needs Chromium and found no executable ${process.env.CHROMIUM_PATH ?? 'chromium on PATH'}: install it with ` +
      '`apt-get install -y chromium` (Debian; .ci/run does it in CI) or set CHROMIUM_PATH to the binary.',
  );
}

/** What `npm run provision` prints (the fields these tests read). */
interface Provisioned {
  companyId: number;
  userId: number;
  email: string;
  password: string;
  clientId: string;
}

describe('a browser app on another origin, in headless Chromium (code + PKCE, CORS)', () => {
  const keys = generateTestKeyPair();
  const changeOriginKey = randomBytes(32).toString('base64');
  let database: TestDatabase;
  let services: RunningService[] = [];
  let testApp: BrowserTestApp;
  let browser: Browser;
  let company: Provisioned;
  let guessedUser: Provisioned;
  let appClientId: string;
  /** main-api as the browser knows it: the issuer, on another host name than the page. */
  let mainApiUrl: string;
  let plannerUrl: string;
  let integrationsUrl: string;

  beforeAll(async () => {
    const executablePath = chromiumPath();
    database = await createTestDatabase('browser');
    await migrateAll(database.url);
    const [pagePort, mainApiPort] = [await freePort(), await freePort()];
    // Two origins for the browser: the page on 127.0.0.1, main-api on localhost (and other ports).
    testApp = await BrowserTestApp.start(pagePort, () => ({
      clientId: appClientId,
      mainApiUrl,
      plannerUrl,
      integrationsUrl,
      externalClientId: 'CLI-BROWSER-1',
    }));
    mainApiUrl = `http://localhost:${mainApiPort}`;
    const shared = {
      DATABASE_URL: database.url,
      CORS_ALLOWED_ORIGINS: testApp.origin,
      JWT_ISSUER: mainApiUrl,
    };
    const mainApi = await RunningService.start(
      'main-api',
      {
        ...shared,
        JWT_PRIVATE_KEY: keys.privatePem,
        CHANGE_ORIGIN_KEY: changeOriginKey,
        // Low, so the wrong-credentials test reaches the limit in a few tries.
        TOKEN_RATE_LIMIT_PER_CLIENT: '3',
      },
      mainApiPort,
    );
    services.push(mainApi);
    await mainApi.waitUntilReady();
    const backends = {
      ...shared,
      // Server to server: the address main-api listens on.
      MAIN_API_URL: mainApi.url,
    };
    const planner = await RunningService.start('planner', backends);
    const integrations = await RunningService.start('integrations', {
      ...backends,
      INTEGRATIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      CHANGE_ORIGIN_KEY: changeOriginKey,
    });
    services.push(planner, integrations);
    plannerUrl = planner.url;
    integrationsUrl = integrations.url;

    company = await provision<Provisioned>(database.url, ['--company', 'Browser Agency']);
    const app = await provision<Provisioned>(database.url, [
      '--add-app',
      '--company-id',
      String(company.companyId),
      '--redirect-uri',
      testApp.redirectUri,
      '--name',
      'Browser app',
    ]);
    appClientId = app.clientId;
    guessedUser = await provision<Provisioned>(database.url, [
      '--add-user',
      '--company-id',
      String(company.companyId),
      '--email',
      'guessed@browser-agency.test',
    ]);
    const [launched] = await Promise.all([
      puppeteer.launch({
        executablePath,
        headless: true,
        // Chromium refuses to run as root with its sandbox (CI containers run as root).
        args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
      }),
      planner.waitUntilReady(),
      integrations.waitUntilReady(),
    ]);
    browser = launched;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
    try {
      // Fails the file with every answer that differed from the services' documents.
      await stopAll(services);
    } finally {
      services = [];
      await database?.drop();
    }
  });

  /** Opens the app, clicks "Sign in": main-api's sign-in page, reached by the app's redirect. */
  async function openSignInPage(): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(`${testApp.origin}/`, WAIT);
    await Promise.all([page.waitForNavigation(WAIT), page.click('#sign-in')]);
    expect(new URL(page.url()).origin).toBe(mainApiUrl);
    await page.waitForSelector('#email', WAIT);
    return page;
  }

  async function submit(page: Page, email: string, password: string): Promise<number | undefined> {
    await page.type('#email', email);
    await page.type('#password', password);
    const [response] = await Promise.all([page.waitForNavigation(WAIT), page.click('button[type="submit"]')]);
    return response?.status();
  }

  it('signs in on the sign-in page, then calls all three services from the page and logs out', async () => {
    const page = await openSignInPage();

    await submit(page, company.email, company.password);
    expect(page.url().startsWith(`${testApp.redirectUri}?`)).toBe(true);
    await page.waitForFunction('window.flowResult !== undefined', WAIT);
    const result = (await page.evaluate('window.flowResult')) as FlowResult;

    expect(result.failed).toBeUndefined();
    expect(result.refusals).toEqual({
      'after logout': expect.objectContaining({ code: 'AC005', message: 'Access token has been revoked' }),
      'refresh after logout': { error: 'invalid_grant', error_description: 'Refresh token has been revoked' },
    });
    expect(result).toMatchObject({
      stateMatched: true,
      statuses: {
        exchange: 200,
        me: 200,
        'working week': 200,
        'create client': 201,
        'create project': 201,
        'list projects': 200,
        'book allocation': 200,
        'read allocations': 200,
        'create mapping': 201,
        refresh: 200,
        'read mapping': 200,
        logout: 200,
        'after logout': 401,
        'refresh after logout': 400,
      },
      projectNames: ['Browser project'],
      // Monday to Friday, 8 hours a day: the working week the page set through main-api.
      allocations: [
        {
          userId: company.userId,
          from: '2027-01-04T00:00:00',
          to: '2027-01-08T00:00:00',
          allocatedHours: 16,
          capacity: 40,
        },
      ],
      mappedClient: { name: 'Browser Foods' },
      mapping: { entity: 'clients', external_id: 'CLI-BROWSER-1', source: 'JIRA', state: 'complete' },
      refreshRotated: true,
      refreshAfterLogout: { status: 400, error: 'invalid_grant' },
    });
    expect(result.mapping).toHaveProperty('platform_id', result.mappedClient?.id);
    await page.close();
  });

  it('shows "E-mail or password is wrong" on the sign-in page, then the rate-limit message', async () => {
    const page = await openSignInPage();
    const alertText = () =>
      page.evaluate('document.querySelector(\'[role="alert"]\')?.textContent') as Promise<string>;

    const statuses: (number | undefined)[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      statuses.push(await submit(page, guessedUser.email, `wrong-password-${attempt}`));
      await page.waitForSelector('[role="alert"]', WAIT);
      expect(await alertText()).toBe('E-mail or password is wrong.');
      // The page comes back with the e-mail kept; the next try types it again, as autofill would.
      await page.evaluate('document.getElementById("email").value = ""');
    }
    statuses.push(await submit(page, guessedUser.email, 'wrong-password-again'));
    await page.waitForSelector('[role="alert"]', WAIT);

    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(await alertText()).toMatch(/^Too many failed sign-in attempts/);
    expect(new URL(page.url()).origin).toBe(mainApiUrl);
    await page.close();
  });
});
