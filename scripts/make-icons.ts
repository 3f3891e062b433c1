/**
 * Draws the app icons (the K of favicon.svg) as PNG files for the web app manifest.
 * Run once when the logo changes: bun scripts/make-icons.ts
 */
import { deflateSync } from 'node:zlib'

const BG = [0x11, 0x05, 0x3b]
const FG = [0x42, 0xa5, 0xf5]
const K: [number, number][] = [
	[20, 14],
	[28, 14],
	[28, 29],
	[41, 14],
	[51, 14],
	[36.5, 30.5],
	[52, 50],
	[41.5, 50],
	[28, 32.8],
	[28, 50],
	[20, 50]
]

function inside(poly: [number, number][], x: number, y: number) {
	let hit = false
	for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
		const [xi, yi] = poly[i]
		const [xj, yj] = poly[j]
		if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit
	}
	return hit
}

function inRoundedRect(x: number, y: number, radius: number) {
	const cx = Math.min(Math.max(x, radius), 64 - radius)
	const cy = Math.min(Math.max(y, radius), 64 - radius)
	return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2
}

function crc32(bytes: Uint8Array) {
	let c = ~0
	for (const b of bytes) {
		c ^= b
		for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1))
	}
	return ~c >>> 0
}

function chunk(type: string, data: Uint8Array) {
	const out = new Uint8Array(12 + data.length)
	const view = new DataView(out.buffer)
	view.setUint32(0, data.length)
	out.set(new TextEncoder().encode(type), 4)
	out.set(data, 8)
	view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)))
	return out
}

function png(size: number, maskable: boolean) {
	const raw = new Uint8Array(size * (size * 4 + 1))
	const scale = maskable ? 64 / (size * 0.8) : 64 / size
	const offset = maskable ? size * 0.1 : 0
	const S = 4
	for (let y = 0; y < size; y++) {
		raw[y * (size * 4 + 1)] = 0
		for (let x = 0; x < size; x++) {
			let bg = 0
			let fg = 0
			for (let sy = 0; sy < S; sy++)
				for (let sx = 0; sx < S; sx++) {
					const u = (x - offset + (sx + 0.5) / S) * scale
					const v = (y - offset + (sy + 0.5) / S) * scale
					if (inside(K, u, v)) fg++
					else if (maskable || inRoundedRect(u, v, 14)) bg++
				}
			const total = S * S
			const alpha = (fg + bg) / total
			const mix = fg + bg ? fg / (fg + bg) : 0
			const p = y * (size * 4 + 1) + 1 + x * 4
			for (let c = 0; c < 3; c++) raw[p + c] = Math.round(BG[c] * (1 - mix) + FG[c] * mix)
			raw[p + 3] = maskable ? 255 : Math.round(alpha * 255)
		}
	}
	if (maskable) {
		for (let y = 0; y < size; y++)
			for (let x = 0; x < size; x++) {
				const p = y * (size * 4 + 1) + 1 + x * 4
				if (raw[p + 3] === 255 && raw[p] === 0 && raw[p + 1] === 0 && raw[p + 2] === 0) raw.set([...BG, 255], p)
			}
	}
	const header = new Uint8Array(13)
	const hv = new DataView(header.buffer)
	hv.setUint32(0, size)
	hv.setUint32(4, size)
	header.set([8, 6, 0, 0, 0], 8)
	const parts = [
		new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
		chunk('IHDR', header),
		chunk('IDAT', deflateSync(raw)),
		chunk('IEND', new Uint8Array())
	]
	return Buffer.concat(parts)
}

await Bun.write('public/icons/icon-192.png', png(192, false))
await Bun.write('public/icons/icon-512.png', png(512, false))
await Bun.write('public/icons/icon-maskable-512.png', png(512, true))
console.log('icons written to public/icons/')
