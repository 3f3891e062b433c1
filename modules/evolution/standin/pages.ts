/** The stand-in's own pages and controls: the chat page where a person writes as a client's phone, and /__standin/*. */
import type { ConnectionState } from '../webhook'
import { phoneKey } from '../webhook'
import { type StandinState, STATES, digitsOf, escapeHtml, json, record } from './shared'
import type { createInstances } from './instances'
import type { createMessages } from './messages'

export function createPages(
	state: StandinState,
	messages: ReturnType<typeof createMessages>,
	instances: ReturnType<typeof createInstances>
) {
	const { sent, inbound } = state
	const { media, deliverInbound } = messages
	const { setConnectionState } = instances
	const deliveries = state.deliveries
	const firstInstance = () => state.instance()

	function conversation(phone: string) {
		const key = phoneKey(digitsOf(phone))
		const out = sent
			.filter((s) => phoneKey(digitsOf(s.number)) === key)
			.map((s) => ({
				direction: 'out',
				id: s.id,
				text: s.text ?? s.caption ?? '',
				fileName: s.fileName,
				size: s.size,
				seq: s.seq,
				at: s.at
			}))
		const into = inbound
			.filter((m) => phoneKey(m.from) === key)
			.map((m) => ({ direction: m.fromMe ? 'out' : 'in', id: m.id, text: m.text, fileName: null, size: null, seq: m.seq, at: m.at }))
		return [...out, ...into].sort((a, b) => a.seq - b.seq)
	}

	async function controls(req: Request, url: URL): Promise<Response> {
		const path = url.pathname.slice('/__standin'.length)
		const file = /^\/sent\/([^/]+)\/media$/.exec(path)
		if (req.method === 'GET' && file) {
			const m = media.get(file[1])
			return m
				? new Response(m.bytes, {
						headers: { 'content-type': m.mimetype, 'content-disposition': `inline; filename="${m.fileName.replace(/"/g, '')}"` }
					})
				: new Response(null, { status: 404 })
		}
		if (req.method === 'GET' && path === '/sent') {
			const number = url.searchParams.get('number')
			return json(number ? sent.filter((s) => phoneKey(digitsOf(s.number)) === phoneKey(digitsOf(number))) : sent)
		}
		if (req.method === 'GET' && path === '/deliveries') return json(deliveries)
		if (req.method === 'GET' && path === '/chat') {
			const phones = [...new Set([...sent.map((s) => s.number.replace(/\D/g, '')), ...inbound.map((m) => m.from)].filter(Boolean))]
			const phone = url.searchParams.get('phone') ?? ''
			return json({ state: firstInstance().state, phones, messages: phone ? conversation(phone) : [] })
		}
		const body = record(await req.json().catch(() => null)) ?? {}
		if (req.method === 'POST' && path === '/inbound') {
			if (typeof body.from !== 'string' || typeof body.text !== 'string' || !/\d{8,}/.test(body.from.replace(/\D/g, ''))) {
				return json({ message: 'Informe o telefone (from) e o texto (text).' }, 400)
			}
			return json(await deliverInbound(body as Parameters<typeof deliverInbound>[0]))
		}
		if (req.method === 'POST' && path === '/state') {
			if (!STATES.includes(body.state as ConnectionState)) return json({ message: 'Estado inválido: use open, close ou connecting.' }, 400)
			return json({
				delivery: await setConnectionState(body.state as ConnectionState, typeof body.instance === 'string' ? body.instance : undefined)
			})
		}
		return new Response(null, { status: 404 })
	}

	function chatPage(): Response {
		const html = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>WhatsApp local (simulador)</title><style>
body{font:15px system-ui,sans-serif;margin:0;background:#efeae2;color:#111}header{background:#075e54;color:#fff;padding:.8rem 1rem}
main{max-width:44rem;margin:0 auto;padding:1rem}form{display:flex;gap:.5rem;flex-wrap:wrap;margin-bottom:.8rem}input,textarea{font:inherit;padding:.45rem;border:1px solid #ccc;border-radius:.4rem}
textarea{flex:1 1 100%;min-height:3rem}button{background:#128c7e;color:#fff;border:0;border-radius:.4rem;padding:.5rem 1rem;cursor:pointer}
#log{display:flex;flex-direction:column;gap:.4rem}.in,.out{max-width:80%;padding:.45rem .7rem;border-radius:.5rem;white-space:pre-wrap;box-shadow:0 1px 1px #0002}
.in{background:#fff;align-self:flex-start}.out{background:#d9fdd3;align-self:flex-end}.muted{color:#555;font-size:.85rem}</style></head><body>
<header><strong>WhatsApp local (simulador)</strong> · instância ${escapeHtml(firstInstance().name)} · <span id="state"></span></header><main>
<p class="muted">Escreva como se fosse o celular de um cliente: a mensagem chega ao portal pelo webhook. À direita, o que o portal enviou para esse número.</p>
<form id="f"><input id="phone" placeholder="Telefone do cliente (ex.: 5585999990001)" list="phones" required><datalist id="phones"></datalist>
<input id="name" placeholder="Nome (opcional)"><textarea id="text" placeholder="Mensagem" required></textarea><button>Enviar como cliente</button></form>
<div id="log"></div></main><script>
const $ = (id) => document.getElementById(id)
$('phone').value = new URLSearchParams(location.search).get('phone') || localStorage.getItem('phone') || ''
async function refresh() {
	const phone = $('phone').value.replace(/\\D/g, '')
	const r = await fetch('/__standin/chat?phone=' + phone).then((x) => x.json())
	$('state').textContent = r.state === 'open' ? 'conectado' : 'desconectado (' + r.state + ')'
	$('phones').innerHTML = r.phones.map((p) => '<option value="' + p + '">').join('')
	$('log').replaceChildren(...r.messages.map((m) => {
		const div = document.createElement('div')
		div.className = m.direction
		div.textContent = m.text
		if (m.fileName) {
			const a = document.createElement('a')
			a.href = '/__standin/sent/' + m.id + '/media'
			a.target = '_blank'
			a.textContent = 'Documento: ' + m.fileName + (m.size ? ' (' + Math.ceil(m.size / 1024) + ' kB)' : '')
			div.prepend(a, document.createElement('br'))
		}
		const when = document.createElement('div')
		when.className = 'muted'
		when.textContent = new Date(m.at).toLocaleTimeString('pt-BR')
		div.append(when)
		return div
	}))
}
$('f').onsubmit = async (e) => {
	e.preventDefault()
	localStorage.setItem('phone', $('phone').value)
	await fetch('/__standin/inbound', { method: 'POST', headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ from: $('phone').value, text: $('text').value, pushName: $('name').value || undefined }) })
	$('text').value = ''
	refresh()
}
refresh()
setInterval(refresh, 1500)
</script></body></html>`
		return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } })
	}

	return { controls, chatPage }
}
