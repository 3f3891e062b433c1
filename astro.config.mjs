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
	vite: { plugins: [tailwindcss()] }
})
