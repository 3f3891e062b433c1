/**
 * The paper side of the Asaas stand-in: boleto numbers (FEBRABAN layout with real check digits), an EMV Pix
 * copia-e-cola string and a hand-written PDF 1.4, so what the portal downloads and forwards is a real document.
 */

const digitsOf = (s: string) => [...s].map(Number)

/** Módulo 10 of the digitable line's fields: weights 2,1 from the right, digits of the products summed. */
function mod10(digits: string): number {
	let sum = 0
	digitsOf(digits)
		.reverse()
		.forEach((d, i) => {
			const p = d * (i % 2 === 0 ? 2 : 1)
			sum += p > 9 ? p - 9 : p
		})
	return (10 - (sum % 10)) % 10
}

/** Módulo 11 of the barcode's general check digit: weights 2..9 from the right; 0, 10 and 11 become 1. */
function mod11(digits: string): number {
	let sum = 0
	digitsOf(digits)
		.reverse()
		.forEach((d, i) => {
			sum += d * (2 + (i % 8))
		})
	const dv = 11 - (sum % 11)
	return dv === 0 || dv > 9 ? 1 : dv
}

/** Days since 07/10/1997, restarting at 1000 on 22/02/2025 (the factor passed 9999). */
function dueFactor(dueDate: string): string {
	const days = Math.round((Date.parse(`${dueDate}T00:00:00Z`) - Date.parse('1997-10-07T00:00:00Z')) / 86_400_000)
	return String(days < 1000 ? days : ((days - 1000) % 9000) + 1000).padStart(4, '0')
}

/** The 44-digit barcode and 47-digit digitable line of a boleto of `bank` for this value and due date. */
export function boletoNumbers(input: { value: number; dueDate: string; nossoNumero: string; bank?: string }) {
	const bank = input.bank ?? '461'
	const free = input.nossoNumero.replace(/\D/g, '').padStart(25, '0').slice(-25)
	const tail = dueFactor(input.dueDate) + String(Math.round(input.value * 100)).padStart(10, '0')
	const withoutDv = `${bank}9${tail}${free}`
	const dv = mod11(withoutDv)
	const barCode = `${bank}9${dv}${tail}${free}`
	const field1 = `${bank}9${free.slice(0, 5)}`
	const field2 = free.slice(5, 15)
	const field3 = free.slice(15, 25)
	const identificationField = `${field1}${mod10(field1)}${field2}${mod10(field2)}${field3}${mod10(field3)}${dv}${tail}`
	return { barCode, identificationField }
}

/** 00190.00009 02759.288002 19329.781701 8 78900000005000 */
export function formatDigitableLine(line: string): string {
	return line.replace(/^(\d{5})(\d{5})(\d{5})(\d{6})(\d{5})(\d{6})(\d)(\d{14})$/, '$1.$2 $3.$4 $5.$6 $7 $8')
}

function crc16(text: string): string {
	let crc = 0xffff
	for (const byte of new TextEncoder().encode(text)) {
		crc ^= byte << 8
		for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
	}
	return crc.toString(16).toUpperCase().padStart(4, '0')
}

const tlv = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`

/** A dynamic-QR Pix copia-e-cola string (EMV BR Code) ending in its CRC16. */
export function pixPayload(input: { location: string; value: number; merchant: string; city: string }): string {
	const body =
		tlv('00', '01') +
		tlv('01', '12') +
		tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('25', input.location)) +
		tlv('52', '0000') +
		tlv('53', '986') +
		tlv('54', input.value.toFixed(2)) +
		tlv('58', 'BR') +
		tlv('59', input.merchant.slice(0, 25)) +
		tlv('60', input.city.slice(0, 15)) +
		tlv('62', tlv('05', '***')) +
		'6304'
	return body + crc16(body)
}

const ITF = ['nnwwn', 'wnnnw', 'nwnnw', 'wwnnn', 'nnwnw', 'wnwnn', 'nwwnn', 'nnnww', 'wnnwn', 'nwnwn']

/** Interleaved 2 of 5 bars (the boleto barcode) as PDF rectangles from (x, y), height h. */
function itfBars(code: string, x: number, y: number, h: number): string {
	const narrow = 0.9
	const wide = 2.25
	const ops: string[] = []
	let cursor = x
	const bar = (w: number, black: boolean) => {
		if (black) ops.push(`${cursor.toFixed(2)} ${y} ${w} ${h} re f`)
		cursor += w
	}
	for (const b of [true, false, true, false]) bar(narrow, b)
	for (let i = 0; i + 1 < code.length; i += 2) {
		const bars = ITF[Number(code[i])]
		const spaces = ITF[Number(code[i + 1])]
		for (let k = 0; k < 5; k++) {
			bar(bars[k] === 'w' ? wide : narrow, true)
			bar(spaces[k] === 'w' ? wide : narrow, false)
		}
	}
	bar(wide, true)
	bar(narrow, false)
	bar(narrow, true)
	return ops.join('\n')
}

export interface PdfPage {
	title: string
	lines: string[]
	/** Drawn as an ITF barcode under the text. */
	barCode?: string
	footer?: string
}

/** Characters PDF's WinAnsiEncoding shares with Latin-1; anything else becomes '?'. */
const pdfText = (s: string) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`)

/**
 * A PDF 1.4 with one A4 page per entry, Helvetica (a standard font, so nothing is embedded), built by hand with
 * exact xref offsets. Every character written is Latin-1, so string length equals byte length.
 */
export function pdfDocument(pages: PdfPage[]): Uint8Array<ArrayBuffer> {
	const objects: string[] = []
	objects[1] = '<< /Type /Catalog /Pages 2 0 R >>'
	objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'
	objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>'
	const kids: string[] = []
	pages.forEach((page, i) => {
		const pageObj = 5 + 2 * i
		const contentObj = pageObj + 1
		const text = [`BT /F2 16 Tf 50 780 Td (${pdfText(page.title)}) Tj ET`]
		for (const [n, line] of page.lines.entries()) text.push(`BT /F1 12 Tf 50 ${740 - n * 20} Td (${pdfText(line)}) Tj ET`)
		const barsTop = 740 - page.lines.length * 20 - 70
		if (page.barCode) text.push(itfBars(page.barCode, 50, barsTop, 50))
		if (page.footer) text.push(`BT /F1 9 Tf 50 60 Td (${pdfText(page.footer)}) Tj ET`)
		const stream = text.join('\n')
		objects[pageObj] =
			`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${contentObj} 0 R >>`
		objects[contentObj] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`
		kids.push(`${pageObj} 0 R`)
	})
	objects[2] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages.length} >>`

	let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n'
	const offsets: number[] = []
	for (let i = 1; i < objects.length; i++) {
		offsets.push(out.length)
		out += `${i} 0 obj\n${objects[i]}\nendobj\n`
	}
	const xref = out.length
	out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`
	for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`
	out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
	return new Uint8Array(Buffer.from(out, 'latin1'))
}
