import { type APIRequestContext, type Page, expect } from '@playwright/test'
import type { SentRecord } from '../../modules/evolution'
import { ACCOUNTS, signIn, uniqueTag } from './fixtures'
import { ASAAS_PORT, EVOLUTION_INSTANCE, EVOLUTION_KEY, asaasUrl, evolutionUrl } from './ports'

// The journeys' side of the stand-ins serve.ts starts: point the portal at the Evolution stand-in, read what it
// received, and act as the world outside (a client writing on WhatsApp, a client paying a charge).

/**
 * Saves the Evolution stand-in as the WhatsApp gateway, the three settings the API tab saves, through an
 * administrador's API (a signed-in page's `page.request` with its origin, or `administradorApi`).
 */
export async function connectWhatsAppGateway(api: APIRequestContext, origin?: string) {
	const res = await api.post('/api/configuracoes/bulk', {
		...(origin ? { headers: { origin } } : {}),
		data: {
			configuracoes: [
				['evolution_api_url', evolutionUrl],
				['evolution_api_key', EVOLUTION_KEY],
				['evolution_instance_name', EVOLUTION_INSTANCE]
			].map(([chave, valor]) => ({ chave, valor, descricao: chave, categoria: 'whatsapp' }))
		}
	})
	expect(res.status()).toBe(200)
}

/** An administrador signed in on `page`, with the Evolution stand-in saved as the WhatsApp gateway, then on `path`. */
export async function signInWithGateway(page: Page, path: string) {
	await signIn(page, ACCOUNTS.administrador)
	await connectWhatsAppGateway(page.request, new URL(page.url()).origin)
	await page.goto(path)
}

/** What the Evolution stand-in received for a number (or at all), as its control endpoint lists it. */
export async function sentByGateway(request: APIRequestContext, number?: string): Promise<SentRecord[]> {
	const res = await request.get(`${evolutionUrl}/__standin/sent${number ? `?number=${number}` : ''}`)
	return res.json()
}

/** A client's WhatsApp message arriving at the Evolution stand-in, which delivers it to the portal's webhook. */
export function clientWrites(request: APIRequestContext, from: string, text: string) {
	return request.post(`${evolutionUrl}/__standin/inbound`, { data: { from, text } })
}

/** The client pays an Asaas charge (the stand-in's "pagar"); the stand-in sends the portal its webhook. */
export function clientPays(request: APIRequestContext, paymentId: string) {
	return request.post(`http://127.0.0.1:${ASAAS_PORT}/__standin/payments/${paymentId}/confirm`)
}

/**
 * The representative signed in on `page` gets their own sandbox Asaas account (the stand-in takes any $aact_ key as an
 * account of its own), with a Pix key, as a real account that gives parcels their PIX code has. Answers the key.
 */
export async function withOwnAsaas(page: Page, baseURL: string) {
	const key = `$aact_hmlg_jornada_${uniqueTag()}_000000000000000000`
	const saved = await page.request.put('/api/representantes/asaas-config', {
		headers: { origin: baseURL },
		data: { ativar_api_asaas: 'S', asaas_api_key: key, asaas_ambiente: 'sandbox' }
	})
	expect(saved.status(), await saved.text()).toBe(200)
	const pixKey = await page.request.post(`${new URL(asaasUrl).origin}/__standin/pix-keys`, { data: { apiKey: key } })
	expect(pixKey.status()).toBe(200)
	return key
}
