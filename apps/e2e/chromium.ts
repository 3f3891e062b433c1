/**
 * How the journeys (playwright.config.ts) and the Lighthouse bench run Chromium here: the system's Chromium unless
 * CHROMIUM_PATH says otherwise, without the sandbox (containers), the GPU, or any background traffic of its own.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const CHROMIUM_FLAGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run'
]
