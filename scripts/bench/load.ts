/**
 * Closed-loop load generator (argv: url keysFile seconds concurrency; several urls, comma-separated, share the clients
 * in turn: one portal instance each, as a balancer would). Prints one JSON line of figures.
 * It speaks HTTP/1.1 over its own keep-alive sockets, all in its one thread, instead of using fetch: fetch runs
 * its connections on a thread of its own, one more thread competing for the cores with the server it measures.
 */
import type { Socket } from 'bun'
import { loadFigures } from './figures'

const [urls, keysFile, seconds, concurrency] = process.argv.slice(2)
const targets = urls.split(',').map((url) => new URL(url))
const keys = (await Bun.file(keysFile).json()) as { cnpj: string; chave: string; mac: string }[]
const until = performance.now() + Number(seconds) * 1000
const latencies: number[] = []
let errors = 0
let n = 0

interface Client {
	target: URL
	x: number
	start: number
	waiting: boolean
	/** Bytes received and not yet read, one character per byte (latin1), so lengths count bytes. */
	buffer: string
	done: () => void
}

function nextRequest(client: Client): string {
	// xorshift32 in 32-bit integer arithmetic, so every client walks all the keys (an LCG in doubles falls into short cycles).
	client.x ^= client.x << 13
	client.x ^= client.x >>> 17
	client.x ^= client.x << 5
	const k = keys[(client.x >>> 0) % keys.length]
	// Keys and nonces are ASCII, so the body's length in characters is its length in bytes.
	const body = JSON.stringify({ cnpj: k.cnpj, chave: k.chave, sistema: 'K-PDV', mac: k.mac, nonce: String(n++) })
	return `POST ${client.target.pathname} HTTP/1.1\r\nhost: ${client.target.host}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`
}

function send(socket: Socket<Client>) {
	const client = socket.data
	if (performance.now() >= until) {
		socket.end()
		return client.done()
	}
	client.start = performance.now()
	client.waiting = true
	socket.write(nextRequest(client))
}

/** Where the first complete response in `buffer` ends, and its status; null while incomplete. */
function completeResponse(buffer: string): { end: number; status: number } | null {
	const headEnd = buffer.indexOf('\r\n\r\n')
	if (headEnd < 0) return null
	const length = /\r\ncontent-length: *(\d+)/i.exec(buffer.slice(0, headEnd + 2))
	if (!length) throw new Error('answer without content-length')
	const end = headEnd + 4 + Number(length[1])
	return buffer.length < end ? null : { end, status: Number(buffer.slice(9, 12)) }
}

async function client(seed: number) {
	const { promise, resolve } = Promise.withResolvers<void>()
	const target = targets[seed % targets.length]
	const data: Client = { target, x: seed * 2654435761, start: 0, waiting: false, buffer: '', done: resolve }
	await Bun.connect<Client>({
		hostname: target.hostname,
		port: Number(target.port),
		data,
		socket: {
			open: send,
			data(socket, chunk) {
				const c = socket.data
				c.buffer += chunk.toString('latin1')
				const response = completeResponse(c.buffer)
				if (!response) return
				latencies.push(performance.now() - c.start)
				c.waiting = false
				if (response.status !== 200) errors++
				c.buffer = c.buffer.slice(response.end)
				send(socket)
			},
			close(socket) {
				// A connection closed by the server while a request waited is a failed request.
				if (socket.data.waiting) errors++
				socket.data.done()
			},
			error(socket) {
				errors++
				socket.data.waiting = false
				socket.data.done()
			}
		}
	})
	await promise
}

const started = performance.now()
const cpuAtStart = process.cpuUsage()
await Promise.all(Array.from({ length: Number(concurrency) }, (_, i) => client(i + 1)))
console.log(JSON.stringify(loadFigures(latencies, (performance.now() - started) / 1000, errors, cpuAtStart)))
