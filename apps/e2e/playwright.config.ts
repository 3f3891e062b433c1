import { defineConfig } from '@playwright/test'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium'
import { PORTAL_PORT as port } from './ports'

const bun = process.env.BUN_BIN ?? 'bun'

export default defineConfig({
	testDir: '.',
	testMatch: '*.e2e.ts',
	outputDir: '../../test-results/e2e',
	fullyParallel: false,
	workers: 2,
	forbidOnly: !!process.env.CI,
	retries: process.env.CI ? 1 : 0,
	// The longest journeys take 20–30 s on two cores shared with other work; each waits for what it needs, and
	// these limits only bound a journey that is stuck.
	timeout: 60_000,
	expect: { timeout: 10_000 },
	reporter: [['list']],
	use: {
		baseURL: `http://127.0.0.1:${port}`,
		locale: 'pt-BR',
		timezoneId: 'America/Sao_Paulo',
		trace: 'on-first-retry',
		launchOptions: {
			executablePath: CHROMIUM_PATH,
			args: CHROMIUM_FLAGS
		}
	},
	webServer: {
		command: `${bun} apps/e2e/serve.ts`,
		cwd: '../..',
		url: `http://127.0.0.1:${port}/api/health`,
		reuseExistingServer: false,
		timeout: 60_000,
		env: { NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', ADMIN_CNPJ: '11222333000181', ADMIN_PASSWORD: 'admin-e2e-senha' },
		stdout: 'ignore',
		stderr: 'pipe'
	}
})
