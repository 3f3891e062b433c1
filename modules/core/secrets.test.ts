import { describe, expect, it } from 'bun:test'
import { mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SECRET_KEY_FILE, createSecretBox, isSealed, loadSecretKey, maskSealed } from './secrets'

describe('the secret box', () => {
	const box = createSecretBox(new Uint8Array(32).fill(1))

	it('seals with AES-256-GCM: a fresh IV each time, the last 4 characters as the only clear part', () => {
		const key = '$aact_hmlg_0123456789abcdef'
		const a = box.seal(key)
		const b = box.seal(key)
		expect(a).not.toBe(b)
		expect(isSealed(a)).toBe(true)
		expect(a).not.toContain('0123456789')
		expect(maskSealed(a)).toBe('••••••••cdef')
		expect(box.open(a)).toBe(key)
		expect(box.open(b)).toBe(key)
	})

	it('refuses a tampered value and a value sealed with another key, saying which key is wrong', () => {
		const sealed = box.seal('segredo-muito-importante')
		const tampered = `${sealed.slice(0, -3)}${sealed.slice(-3) === 'AAA' ? 'BBB' : 'AAA'}`
		expect(() => box.open(tampered)).toThrow('chave de segredos')
		expect(() => createSecretBox(new Uint8Array(32).fill(2)).open(sealed)).toThrow('SECRET_KEY ou secret.key')
	})

	it('takes its key from SECRET_KEY, or creates DATA_DIR/secret.key readable by its owner only', () => {
		expect(loadSecretKey('/nowhere', 'ab'.repeat(32))).toEqual(new Uint8Array(32).fill(0xab))
		expect(() => loadSecretKey('/nowhere', 'curta')).toThrow('32 bytes')
		const dir = mkdtempSync(join(tmpdir(), 'kportal-secret-'))
		const first = loadSecretKey(dir)
		expect(first.byteLength).toBe(32)
		expect(statSync(join(dir, SECRET_KEY_FILE)).mode & 0o777).toBe(0o600)
		expect(loadSecretKey(dir)).toEqual(first)
	})
})
