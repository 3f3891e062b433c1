import { Elysia } from 'elysia'
import { authGuard } from '../auth'
import { representativeScope } from '../resellers'
import { IdParams, PageQuery, z } from '../core'
import { type AppContext, clientIp, notFound } from '../core/server'
import { createLicenceService } from './check'
import { deleteDownload, listDownloads, saveDownload } from './downloads'
import {
	CompanyBody,
	CompanyListQuery,
	CompanyPatch,
	DownloadBody,
	LicenceCheckBody,
	MaintenanceBody,
	NoticeBody,
	NoticeRemoveBody,
	PromoImageBody,
	TerminalBody
} from './model'
import { readPromoImage, removePromoImage, savePromoImage } from './promo'
import {
	createCompany,
	deleteCompany,
	getCompanyJson,
	companyInScope,
	listCompanies,
	patchCompany,
	regenerateKey,
	setCompanyNotice,
	setMaintenance,
	trustRelease,
	updateCompany
} from './service'
import { createTerminal, deleteTerminal, listTerminals, updateTerminal } from './terminals'

const CodigoParams = z.object({ codigo: IdParams.shape.id })

export function licensingRoutes(ctx: AppContext) {
	const { db, clock } = ctx
	const licence = createLicenceService(ctx)

	const companiesRoutes = new Elysia({ prefix: '/api/companies' })
		.use(authGuard(ctx))
		.get('/', ({ query, user }) => listCompanies(db, clock, representativeScope(db, user), query), { roles: 'any', query: CompanyListQuery })
		.get(
			'/all',
			({ user }) => listCompanies(db, clock, representativeScope(db, user), { page: 1, limit: 5000, search: '', status: 'todas', avisos: 'todas' }),
			{ roles: 'any' }
		)
		.put(
			'/maintenance/bulk',
			({ body, user }) => {
				const changed = setMaintenance(db, clock, user, 'all', body.manutencao)
				return { message: `Manutenção ${body.manutencao === 'S' ? 'ativada' : 'desativada'} em ${changed} empresa(s).`, changed }
			},
			{ roles: ['administrador'], body: MaintenanceBody }
		)
		.post(
			'/',
			({ body, user, status }) => {
				const codigo = createCompany(db, clock, user, body)
				return status(201, { message: 'Empresa criada.', company: getCompanyJson(db, codigo) })
			},
			{ roles: 'any', body: CompanyBody }
		)
		.get(
			'/:id',
			({ params, user }) => {
				companyInScope(db, representativeScope(db, user), params.id)
				return getCompanyJson(db, params.id)
			},
			{ roles: 'any', params: IdParams }
		)
		.put(
			'/:id',
			({ params, body, user }) => {
				updateCompany(db, clock, user, params.id, body)
				return { message: 'Empresa atualizada.', company: getCompanyJson(db, params.id) }
			},
			{ roles: 'any', params: IdParams, body: CompanyBody }
		)
		.patch(
			'/:id',
			({ params, body, user }) => {
				patchCompany(db, clock, user, params.id, body)
				return { message: 'Empresa atualizada.', company: getCompanyJson(db, params.id) }
			},
			{ roles: 'any', params: IdParams, body: CompanyPatch }
		)
		.delete(
			'/:id',
			({ params, user }) => {
				deleteCompany(db, clock, user, params.id)
				return { message: 'Empresa excluída.' }
			},
			{ roles: 'any', params: IdParams }
		)
		.post(
			'/:id/liberar-confianca',
			({ params, user }) => {
				const { expira } = trustRelease(db, clock, user, params.id)
				return { message: 'Empresa liberada em confiança por 24 horas.', liberacao_confianca_expira: expira }
			},
			{ roles: 'any', params: IdParams }
		)
		.put(
			'/:id/maintenance',
			({ params, body, user }) => {
				setMaintenance(db, clock, user, params.id, body.manutencao)
				return { message: body.manutencao === 'S' ? 'Manutenção ativada.' : 'Manutenção desativada.' }
			},
			{ roles: ['administrador'], params: IdParams, body: MaintenanceBody }
		)
		.post(
			'/:id/regenerar-chave',
			({ params, user }) => ({ message: 'Nova chave de licença gerada. A chave anterior deixou de funcionar.', serial: regenerateKey(db, clock, user, params.id) }),
			{ roles: ['administrador'], params: IdParams }
		)

	const representativeRoutes = new Elysia({ prefix: '/api/representantes' })
		.use(authGuard(ctx))
		.post(
			'/promo-image',
			({ body, user }) => {
				const file = savePromoImage(db, clock, ctx.config.dataDir, user, body.imageBase64)
				return { message: 'Imagem promocional atualizada.', promo: `/api/public/promo/${file}` }
			},
			{ roles: ['representante'], body: PromoImageBody }
		)
		.delete(
			'/promo-image',
			({ user }) => {
				removePromoImage(db, clock, ctx.config.dataDir, user)
				return { message: 'Imagem promocional removida.' }
			},
			{ roles: ['representante'] }
		)
		.post(
			'/avisos',
			({ body, user }) => {
				const count = setCompanyNotice(db, clock, user, body.empresas, { titulo: body.titulo, texto: body.texto })
				return { message: `Aviso enviado para ${count} empresa(s).` }
			},
			{ roles: ['representante'], body: NoticeBody }
		)
		.delete(
			'/avisos',
			({ body, user }) => {
				const count = setCompanyNotice(db, clock, user, body.empresas, null)
				return { message: `Avisos removidos de ${count} empresa(s).` }
			},
			{ roles: ['representante'], body: NoticeRemoveBody }
		)

	const terminalRoutes = new Elysia({ prefix: '/api/terminals' })
		.use(authGuard(ctx))
		.get('/', ({ query, user }) => listTerminals(db, clock, user, query), { roles: 'any', query: PageQuery })
		.post(
			'/',
			({ body, user, status }) => status(201, { message: 'Terminal criado.', codigo: createTerminal(db, clock, user, body) }),
			{ roles: 'any', body: TerminalBody }
		)
		.put(
			'/:codigo',
			({ params, body, user }) => {
				updateTerminal(db, clock, user, params.codigo, body)
				return { message: 'Terminal atualizado.' }
			},
			{ roles: 'any', params: CodigoParams, body: TerminalBody }
		)
		.delete(
			'/:codigo',
			({ params, user }) => {
				deleteTerminal(db, clock, user, params.codigo)
				return { message: 'Terminal excluído.' }
			},
			{ roles: 'any', params: CodigoParams }
		)

	const downloadRoutes = new Elysia({ prefix: '/api/downloads' })
		.use(authGuard(ctx))
		.get('/', ({ user }) => listDownloads(db, user), { roles: 'any' })
		.post('/', ({ body, user, status }) => status(201, saveDownload(db, clock, user, body)), { roles: ['administrador'], body: DownloadBody })
		.put('/:id', ({ params, body, user }) => saveDownload(db, clock, user, body, params.id), { roles: ['administrador'], params: IdParams, body: DownloadBody })
		.delete(
			'/:id',
			({ params, user }) => {
				deleteDownload(db, clock, user, params.id)
				return { message: 'Download excluído.' }
			},
			{ roles: ['administrador'], params: IdParams }
		)

	const publicRoutes = new Elysia({ prefix: '/api' })
		.use(authGuard(ctx))
		.post(
			'/licenca/verificar',
			async ({ body, request, server, set }) => {
				// The address is read only for a wrong key, after the check: a client that hung up by then gets no
				// answer to learn from, and its failure is counted under "unknown".
				const json = await licence.check(body, () => clientIp(request, server, ctx.config.trustProxy))
				set.headers['content-type'] = 'application/json; charset=utf-8'
				return json
			},
			{ publicRoute: true, body: LicenceCheckBody }
		)
		.get('/licenca/chave-publica', () => licence.publicKey, { publicRoute: true })
		.get(
			'/public/promo/:file',
			({ params }) => {
				const image = readPromoImage(ctx.config.dataDir, params.file)
				if (!image) throw notFound('Imagem não encontrada.')
				return new Response(image.bytes as unknown as BodyInit, {
					headers: {
						'content-type': image.type,
						'cache-control': 'public, max-age=86400',
						'x-content-type-options': 'nosniff',
						// An uploaded file is only ever an image: nothing in it may run, even if opened directly.
						'content-security-policy': "default-src 'none'; sandbox"
					}
				})
			},
			{ publicRoute: true, params: z.object({ file: z.string().max(100) }) }
		)

	return new Elysia({ name: 'licensing.routes' })
		.decorate('licence', licence)
		.use(companiesRoutes)
		.use(representativeRoutes)
		.use(terminalRoutes)
		.use(downloadRoutes)
		.use(publicRoutes)
}
