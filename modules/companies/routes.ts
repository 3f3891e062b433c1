import { Elysia } from 'elysia'
import { authGuard } from '../auth'
import { routeHooks } from '../core'
import type { AppContext } from '../core/server'
import { representativeScope } from '../resellers'
import {
	allCompaniesRoute,
	bulkCompaniesRoute,
	exportCompaniesRoute,
	createCompanyRoute,
	deleteCompanyRoute,
	getCompanyRoute,
	listCompaniesRoute,
	maintenanceBulkRoute,
	maintenanceRoute,
	patchCompanyRoute,
	regenerateKeyRoute,
	removeNoticesRoute,
	sendNoticeRoute,
	trustReleaseRoute,
	updateCompanyRoute
} from './model'
import {
	bulkUpdateCompanies,
	companyInScope,
	exportCompanies,
	createCompany,
	deleteCompany,
	getCompanyJson,
	listCompanies,
	patchCompany,
	regenerateKey,
	setCompanyNotice,
	setMaintenance,
	trustRelease,
	updateCompany
} from './service'

export function companyRoutes(ctx: AppContext) {
	const { db, clock } = ctx
	return new Elysia({ name: 'companies.routes' })
		.use(authGuard(ctx))
		.route(
			listCompaniesRoute.method,
			listCompaniesRoute.path,
			({ query, user }) => listCompanies(db, clock, representativeScope(db, user), query),
			{
				...routeHooks(listCompaniesRoute),
				can: 'companies.read'
			}
		)
		.route(
			exportCompaniesRoute.method,
			exportCompaniesRoute.path,
			({ query, user }) => exportCompanies(db, clock, representativeScope(db, user), query),
			{ ...routeHooks(exportCompaniesRoute), can: 'companies.read' }
		)
		.route(
			allCompaniesRoute.method,
			allCompaniesRoute.path,
			({ user }) =>
				listCompanies(db, clock, representativeScope(db, user), {
					page: 1,
					limit: 5000,
					search: '',
					status: 'todas',
					avisos: 'todas',
					sort: 'razao',
					order: 'asc'
				}),
			{ ...routeHooks(allCompaniesRoute), can: 'companies.read' }
		)
		.route(bulkCompaniesRoute.method, bulkCompaniesRoute.path, ({ body, user }) => bulkUpdateCompanies(db, clock, user, body), {
			...routeHooks(bulkCompaniesRoute),
			can: 'companies.write'
		})
		.route(
			maintenanceBulkRoute.method,
			maintenanceBulkRoute.path,
			({ body, user }) => {
				const changed = setMaintenance(db, clock, user, 'all', body.manutencao)
				return { message: `Manutenção ${body.manutencao === 'S' ? 'ativada' : 'desativada'} em ${changed} empresa(s).`, changed }
			},
			{ ...routeHooks(maintenanceBulkRoute), can: 'companies.maintenance' }
		)
		.route(
			createCompanyRoute.method,
			createCompanyRoute.path,
			({ body, user, status }) => {
				const codigo = createCompany(db, clock, user, body)
				return status(201, { message: 'Empresa criada.', company: getCompanyJson(db, codigo) })
			},
			{ ...routeHooks(createCompanyRoute), can: 'companies.write' }
		)
		.route(
			getCompanyRoute.method,
			getCompanyRoute.path,
			({ params, user }) => {
				companyInScope(db, representativeScope(db, user), params.id)
				return getCompanyJson(db, params.id)
			},
			{ ...routeHooks(getCompanyRoute), can: 'companies.read' }
		)
		.route(
			updateCompanyRoute.method,
			updateCompanyRoute.path,
			({ params, body, user }) => {
				updateCompany(db, clock, user, params.id, body)
				return { message: 'Empresa atualizada.', company: getCompanyJson(db, params.id) }
			},
			{ ...routeHooks(updateCompanyRoute), can: 'companies.write' }
		)
		.route(
			patchCompanyRoute.method,
			patchCompanyRoute.path,
			({ params, body, user }) => {
				patchCompany(db, clock, user, params.id, body)
				return { message: 'Empresa atualizada.', company: getCompanyJson(db, params.id) }
			},
			{ ...routeHooks(patchCompanyRoute), can: 'companies.write' }
		)
		.route(
			deleteCompanyRoute.method,
			deleteCompanyRoute.path,
			({ params, user }) => {
				deleteCompany(db, clock, user, params.id)
				return { message: 'Empresa excluída.' }
			},
			{ ...routeHooks(deleteCompanyRoute), can: 'companies.write' }
		)
		.route(
			trustReleaseRoute.method,
			trustReleaseRoute.path,
			({ params, user }) => {
				const { expira } = trustRelease(db, clock, user, params.id)
				return { message: 'Empresa liberada em confiança por 24 horas.', liberacao_confianca_expira: expira }
			},
			{ ...routeHooks(trustReleaseRoute), can: 'companies.write' }
		)
		.route(
			maintenanceRoute.method,
			maintenanceRoute.path,
			({ params, body, user }) => {
				setMaintenance(db, clock, user, params.id, body.manutencao)
				return { message: body.manutencao === 'S' ? 'Manutenção ativada.' : 'Manutenção desativada.' }
			},
			{ ...routeHooks(maintenanceRoute), can: 'companies.maintenance' }
		)
		.route(
			regenerateKeyRoute.method,
			regenerateKeyRoute.path,
			({ params, user }) => ({
				message: 'Nova chave de licença gerada. A chave anterior deixou de funcionar.',
				serial: regenerateKey(db, clock, user, params.id)
			}),
			{ ...routeHooks(regenerateKeyRoute), can: 'companies.keys' }
		)
		.route(
			sendNoticeRoute.method,
			sendNoticeRoute.path,
			({ body, user }) => {
				const count = setCompanyNotice(db, clock, user, body.empresas, { titulo: body.titulo, texto: body.texto })
				return { message: `Aviso enviado para ${count} empresa(s).` }
			},
			{ ...routeHooks(sendNoticeRoute), can: 'companies.sendNotices' }
		)
		.route(
			removeNoticesRoute.method,
			removeNoticesRoute.path,
			({ body, user }) => {
				const count = setCompanyNotice(db, clock, user, body.empresas, null)
				return { message: `Avisos removidos de ${count} empresa(s).` }
			},
			{ ...routeHooks(removeNoticesRoute), can: 'companies.sendNotices' }
		)
}
