import { serve, serveRoutes } from '../auth'
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
	return serveRoutes(ctx, 'companies.routes', ({ db, clock }) => [
		serve(listCompaniesRoute, 'companies.read', ({ query, user }) => listCompanies(db, clock, representativeScope(db, user), query)),
		serve(exportCompaniesRoute, 'companies.read', ({ query, user }) => exportCompanies(db, clock, representativeScope(db, user), query)),
		serve(allCompaniesRoute, 'companies.read', ({ user }) =>
			listCompanies(db, clock, representativeScope(db, user), {
				page: 1,
				limit: 5000,
				search: '',
				status: 'todas',
				avisos: 'todas',
				sort: 'razao',
				order: 'asc'
			})
		),
		serve(bulkCompaniesRoute, 'companies.write', ({ body, user }) => bulkUpdateCompanies(db, clock, user, body)),
		serve(maintenanceBulkRoute, 'companies.maintenance', async ({ body, user }) => {
			const changed = await setMaintenance(db, clock, user, 'all', body.manutencao)
			return { message: `Manutenção ${body.manutencao === 'S' ? 'ativada' : 'desativada'} em ${changed} empresa(s).`, changed }
		}),
		serve(createCompanyRoute, 'companies.write', async ({ body, user }) => {
			const codigo = await createCompany(db, clock, user, body)
			return { message: 'Empresa criada.', company: await getCompanyJson(db, codigo) }
		}),
		serve(getCompanyRoute, 'companies.read', async ({ params, user }) => {
			await companyInScope(db, representativeScope(db, user), params.id)
			return getCompanyJson(db, params.id)
		}),
		serve(updateCompanyRoute, 'companies.write', async ({ params, body, user }) => {
			await updateCompany(db, clock, user, params.id, body)
			return { message: 'Empresa atualizada.', company: await getCompanyJson(db, params.id) }
		}),
		serve(patchCompanyRoute, 'companies.write', async ({ params, body, user }) => {
			await patchCompany(db, clock, user, params.id, body)
			return { message: 'Empresa atualizada.', company: await getCompanyJson(db, params.id) }
		}),
		serve(deleteCompanyRoute, 'companies.write', ({ params, user }) => deleteCompany(db, clock, user, params.id)),
		serve(trustReleaseRoute, 'companies.write', async ({ params, user }) => {
			const { expira } = await trustRelease(db, clock, user, params.id)
			return { message: 'Empresa liberada em confiança por 24 horas.', liberacao_confianca_expira: expira }
		}),
		serve(maintenanceRoute, 'companies.maintenance', async ({ params, body, user }) => {
			await setMaintenance(db, clock, user, params.id, body.manutencao)
			return { message: body.manutencao === 'S' ? 'Manutenção ativada.' : 'Manutenção desativada.' }
		}),
		serve(regenerateKeyRoute, 'companies.keys', async ({ params, user }) => ({
			message: 'Nova chave de licença gerada. A chave anterior deixou de funcionar.',
			serial: await regenerateKey(db, clock, user, params.id)
		})),
		serve(sendNoticeRoute, 'companies.sendNotices', async ({ body, user }) => {
			const count = await setCompanyNotice(db, clock, user, body.empresas, { titulo: body.titulo, texto: body.texto })
			return { message: `Aviso enviado para ${count} empresa(s).` }
		}),
		serve(removeNoticesRoute, 'companies.sendNotices', async ({ body, user }) => {
			const count = await setCompanyNotice(db, clock, user, body.empresas, null)
			return { message: `Avisos removidos de ${count} empresa(s).` }
		})
	])
}
