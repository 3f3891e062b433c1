import { describe, expect, it } from 'bun:test'
import { inboundMessage } from './standin'
import { normaliseBrazilianPhone, parseEvolutionEvent, phoneKey, samePhone, withoutBinaryFields } from './webhook'

const v2 = (data: unknown, event = 'messages.upsert') => ({
	event,
	instance: 'loja',
	data,
	destination: 'https://bo/hooks/evo',
	date_time: '2025-10-21T11:40:39.000Z',
	sender: '558599999999@s.whatsapp.net',
	server_url: 'https://evo.example',
	apikey: 'SEGREDO-DA-INSTANCIA'
})
const key = (remoteJid: string, extra: object = {}) => ({ remoteJid, fromMe: false, id: '3A1B2C3D4E5F6A7B8C9D', ...extra })

describe('parseEvolutionEvent: messages', () => {
	it('reads a v2 conversation', () => {
		const event = parseEvolutionEvent(
			v2({
				key: key('558599990001@s.whatsapp.net'),
				pushName: 'Maria',
				status: 'DELIVERY_ACK',
				message: { conversation: 'Oi, quero a 2ª via' },
				messageType: 'conversation',
				messageTimestamp: 1747557781
			})
		)
		expect(event).toEqual({
			kind: 'message',
			instance: 'loja',
			id: '3A1B2C3D4E5F6A7B8C9D',
			fromMe: false,
			phone: '558599990001',
			jid: '558599990001@s.whatsapp.net',
			text: 'Oi, quero a 2ª via',
			pushName: 'Maria',
			timestamp: 1747557781
		})
		expect(JSON.stringify(event)).not.toContain('SEGREDO')
	})

	it('reads a v1 extendedTextMessage with a string timestamp, and UPPER_SNAKE event names', () => {
		const event = parseEvolutionEvent({
			event: 'MESSAGES_UPSERT',
			instance: 'loja',
			data: {
				key: key('5511987654321@s.whatsapp.net'),
				pushName: 'João',
				message: { extendedTextMessage: { text: 'boleto' } },
				messageTimestamp: '1690000000',
				owner: 'loja'
			}
		})
		expect(event).toMatchObject({ kind: 'message', phone: '5511987654321', text: 'boleto', timestamp: 1690000000 })
	})

	it('reads captions of images, videos and documents, also wrapped (document with caption, ephemeral)', () => {
		const text = (message: unknown) => {
			const e = parseEvolutionEvent(v2({ key: key('558599990001@s.whatsapp.net'), message }))
			return e.kind === 'message' ? e.text : null
		}
		expect(text({ imageMessage: { caption: 'comprovante' } })).toBe('comprovante')
		expect(text({ videoMessage: { caption: 'vídeo' } })).toBe('vídeo')
		expect(text({ documentMessage: { caption: 'pdf', fileName: 'a.pdf' } })).toBe('pdf')
		expect(text({ documentWithCaptionMessage: { message: { documentMessage: { caption: 'nota fiscal' } } } })).toBe('nota fiscal')
		expect(text({ ephemeralMessage: { message: { extendedTextMessage: { text: 'some em 24h' } } } })).toBe('some em 24h')
		expect(text({ audioMessage: { seconds: 4 } })).toBe('')
	})

	it('resolves an @lid sender through key.remoteJidAlt, and ignores it when no phone JID is known', () => {
		const lid = parseEvolutionEvent(
			v2({
				key: key('123456789012345@lid', { addressingMode: 'lid', remoteJidAlt: '558599990001@s.whatsapp.net' }),
				message: { conversation: 'oi' }
			})
		)
		expect(lid).toMatchObject({ kind: 'message', phone: '558599990001', jid: '558599990001@s.whatsapp.net' })
		expect(parseEvolutionEvent(v2({ key: key('123456789012345@lid'), message: { conversation: 'oi' } }))).toEqual({
			kind: 'ignored',
			reason: 'lid-without-phone'
		})
		expect(parseEvolutionEvent(v2({ key: key('123@lid', { remoteJidAlt: '999@lid' }), message: { conversation: 'oi' } }))).toMatchObject({
			kind: 'ignored'
		})
	})

	it('ignores groups and status broadcasts; keeps fromMe (a person on the linked phone)', () => {
		expect(
			parseEvolutionEvent(
				v2({ key: key('120363025246125486@g.us', { participant: '558599990001@s.whatsapp.net' }), message: { conversation: 'oi' } })
			)
		).toEqual({
			kind: 'ignored',
			reason: 'group'
		})
		expect(parseEvolutionEvent(v2({ key: key('status@broadcast'), message: { conversation: 'story' } }))).toEqual({
			kind: 'ignored',
			reason: 'status-broadcast'
		})
		const mine = parseEvolutionEvent(
			v2({ key: key('558599990001@s.whatsapp.net', { fromMe: true }), pushName: 'Você', message: { conversation: 'já te ajudo' } })
		)
		expect(mine).toMatchObject({ kind: 'message', fromMe: true, phone: '558599990001' })
	})

	it('drops a device suffix from the JID', () => {
		expect(parseEvolutionEvent(v2({ key: key('558599990001:12@s.whatsapp.net'), message: { conversation: 'x' } }))).toMatchObject({
			phone: '558599990001',
			jid: '558599990001@s.whatsapp.net'
		})
	})

	it('send.message is our own send', () => {
		const sent = parseEvolutionEvent(
			v2(
				{
					key: { remoteJid: '558599990001@s.whatsapp.net', fromMe: true, id: '3EB0ABC' },
					message: { conversation: 'Seu boleto' },
					messageTimestamp: 1
				},
				'send.message'
			)
		)
		expect(sent).toEqual({
			kind: 'sent',
			instance: 'loja',
			id: '3EB0ABC',
			phone: '558599990001',
			jid: '558599990001@s.whatsapp.net',
			text: 'Seu boleto',
			timestamp: 1
		})
	})
})

describe('messages that are not text', () => {
	const jid = '558599990001@s.whatsapp.net'
	it('a reaction, a deletion notice, a poll vote are not messages; a sticker, an audio, a location, a contact are, without text', () => {
		const upsert = (content: Parameters<typeof inboundMessage>[0], text = '') =>
			parseEvolutionEvent(v2({ key: key(jid), ...inboundMessage(content, text, { jid, thumbnailBytes: 100 }) }))
		expect(upsert('reaction', '👍')).toEqual({ kind: 'ignored', reason: 'not-a-message:reactionMessage' })
		expect(parseEvolutionEvent(v2({ key: key(jid), message: { protocolMessage: { type: 0 } } }))).toMatchObject({ kind: 'ignored' })
		expect(parseEvolutionEvent(v2({ key: key(jid), message: { pollUpdateMessage: {} } }))).toMatchObject({ kind: 'ignored' })
		for (const content of ['sticker', 'audio', 'location', 'contact', 'document'] as const)
			expect(upsert(content)).toMatchObject({ kind: 'message', text: '' })
		expect(upsert('document', 'Segue o comprovante')).toMatchObject({ kind: 'message', text: 'Segue o comprovante' })
	})

	it('drops binary fields serialised as {"0":255,…} before the size is judged, and keeps what the portal reads', () => {
		const body = v2({ key: key(jid), ...inboundMessage('document', 'Legenda', { jid, thumbnailBytes: 40_000 }) })
		const raw = JSON.stringify(body).length
		const slim = JSON.stringify(withoutBinaryFields(body)).length
		expect(raw).toBeGreaterThan(400_000)
		expect(slim).toBeLessThan(2_000)
		expect(parseEvolutionEvent(withoutBinaryFields(body))).toEqual(parseEvolutionEvent(body))
		expect(withoutBinaryFields({ a: { type: 'Buffer', data: [1, 2] }, b: [{ 0: 1, 1: 2 }], c: 'x' })).toEqual({ b: [], c: 'x' })
	})
})

describe('parseEvolutionEvent: other events and hostile input', () => {
	it('connection.update → its state; an unknown state or event is ignored with a reason', () => {
		expect(parseEvolutionEvent(v2({ instance: 'loja', state: 'close', statusReason: 428 }, 'connection.update'))).toEqual({
			kind: 'connection',
			instance: 'loja',
			state: 'close'
		})
		expect(parseEvolutionEvent(v2({ state: 'exploded' }, 'connection.update'))).toEqual({ kind: 'ignored', reason: 'unknown-state' })
		expect(parseEvolutionEvent(v2({ qrcode: 'x' }, 'qrcode.updated'))).toEqual({ kind: 'ignored', reason: 'event:qrcode.updated' })
	})

	it('never throws on odd shapes', () => {
		const odd: unknown[] = [
			null,
			undefined,
			42,
			'messages.upsert',
			[],
			[{ event: 'messages.upsert' }],
			{},
			{ event: 42 },
			{ event: ['messages.upsert'] },
			{ event: 'messages.upsert' },
			{ event: 'messages.upsert', data: [] },
			{ event: 'messages.upsert', data: null },
			{ event: 'messages.upsert', data: { key: null } },
			{ event: 'messages.upsert', data: { key: { id: 123, remoteJid: '558599990001@s.whatsapp.net' } } },
			{ event: 'messages.upsert', data: { key: { id: 'x', remoteJid: 558599990001 } } },
			{ event: 'messages.upsert', data: { key: { id: 'x', remoteJid: '558599990001@s.whatsapp.net' }, message: 'oi' } },
			{
				event: 'messages.upsert',
				data: { key: { id: 'x', remoteJid: '558599990001@s.whatsapp.net' }, message: { conversation: 7 } }
			},
			{ event: 'connection.update', data: { state: { open: true } } },
			{ event: 'messages.upsert', data: { key: { id: 'x', remoteJid: `${'9'.repeat(100_000)}@s.whatsapp.net` } } },
			{ event: 'x'.repeat(1_000_000) }
		]
		for (const body of odd) {
			const event = parseEvolutionEvent(body)
			expect(['ignored', 'message']).toContain(event.kind)
		}
		expect(
			parseEvolutionEvent({
				event: 'messages.upsert',
				data: { key: { id: 'x', remoteJid: '558599990001@s.whatsapp.net' }, message: 'oi' }
			})
		).toMatchObject({ kind: 'message', text: '' })
	})

	it('caps huge strings and survives deep nesting', () => {
		const huge = parseEvolutionEvent(
			v2({
				key: key('558599990001@s.whatsapp.net', { id: 'i'.repeat(10_000) }),
				pushName: 'p'.repeat(10_000),
				message: { conversation: 'a'.repeat(5_000_000) }
			})
		)
		if (huge.kind !== 'message') throw new Error(huge.kind)
		expect([huge.text.length, huge.id.length, huge.pushName?.length]).toEqual([4096, 128, 100])
		let nested: Record<string, unknown> = { conversation: 'fundo' }
		for (let i = 0; i < 10_000; i++) nested = { ephemeralMessage: { message: nested } }
		expect(parseEvolutionEvent(v2({ key: key('558599990001@s.whatsapp.net'), message: nested }))).toMatchObject({
			kind: 'message',
			text: ''
		})
	})

	it('reads timestamps as numbers, digit strings or protobuf Longs; anything else is null', () => {
		const ts = (messageTimestamp: unknown) => {
			const e = parseEvolutionEvent(v2({ key: key('558599990001@s.whatsapp.net'), message: { conversation: 'x' }, messageTimestamp }))
			return e.kind === 'message' ? e.timestamp : 'ignored'
		}
		expect([
			ts(1747557781),
			ts('1747557781'),
			ts({ low: 1747557781, high: 0, unsigned: false }),
			ts(Number.NaN),
			ts(-5),
			ts('12a'),
			ts(null)
		]).toEqual([1747557781, 1747557781, 1747557781, null, null, null, null])
	})
})

describe('phones', () => {
	it('phoneKey ignores the Brazilian ninth digit and punctuation', () => {
		expect(phoneKey('+55 (85) 99999-0001')).toBe('558599990001')
		expect(phoneKey('558599990001')).toBe('558599990001')
		expect(phoneKey('351912345678')).toBe('351912345678')
		expect(samePhone('5585999990001', '558599990001@s.whatsapp.net')).toBe(true)
		expect(samePhone('5585999990001', '5585999990002')).toBe(false)
		expect(samePhone('', '')).toBe(false)
	})

	it('normaliseBrazilianPhone restores the ninth digit of mobiles, keeps landlines, refuses the rest', () => {
		const cases: [string, string | null][] = [
			['(85) 99999-0001', '5585999990001'],
			['+55 85 99999-0001', '5585999990001'],
			['085 99999-0001', '5585999990001'],
			['558599990001', '5585999990001'],
			['85 9999-0001', '5585999990001'],
			['(85) 3222-1100', '558532221100'],
			['11 98765-4321', '5511987654321'],
			['5585899990001', null],
			['5508999990001', null],
			['85 1234-5678', null],
			['12345', null],
			['', null]
		]
		for (const [input, expected] of cases) expect([input, normaliseBrazilianPhone(input)]).toEqual([input, expected])
	})
})
