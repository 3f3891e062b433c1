import react from '@astrojs/react'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'astro/config'

export default defineConfig({
	srcDir: './apps/web',
	publicDir: './public',
	outDir: './dist',
	output: 'static',
	build: { format: 'directory', inlineStylesheets: 'never' },
	integrations: [react()],
	devToolbar: { enabled: false },
	vite: {
		plugins: [tailwindcss()],
		build: {
			rolldownOptions: {
				// zod in a chunk of its own: left to itself, Rolldown put it in the chunk of lib/api.ts, which every page
				// loads, so pages without a form (and the login) carried the schema library (issue 15).
				output: { codeSplitting: { groups: [{ name: 'zod', test: /node_modules[\\/]zod[\\/]/ }] } }
			}
		}
	}
})
