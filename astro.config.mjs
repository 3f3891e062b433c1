import react from '@astrojs/react'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'astro/config'
import { CHUNK_GROUPS, modulePreloads } from './scripts/astro-build.mjs'

export default defineConfig({
	srcDir: './apps/web',
	publicDir: './public',
	outDir: './dist',
	output: 'static',
	build: { format: 'directory', inlineStylesheets: 'never' },
	integrations: [react(), modulePreloads],
	devToolbar: { enabled: false },
	vite: {
		plugins: [tailwindcss()],
		build: {
			rolldownOptions: {
				// zod in a chunk of its own (left to itself, Rolldown put it in the chunk of lib/api.ts, which every page
				// loads), and the code pages share in few chunks (issue 15): scripts/astro-build.mjs says why.
				output: { codeSplitting: { groups: CHUNK_GROUPS } }
			}
		}
	}
})
