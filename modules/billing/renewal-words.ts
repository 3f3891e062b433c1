import { carneName, formatNumber } from '../core'

/**
 * The words of the automatic licence renewal (issue 37), without the schema library: the carnê dialog, the cards and
 * the server's messages say the same. Re-exported by the model.
 */

/** The most credits one parcel may spend (a year of licence at the default 33 days per credit). */
export const MAX_CREDITS_PER_PARCEL = 12

/** A renewal to be named in a message: which parcel of which carnê, for which company, for how many credits. */
interface NamedRenewal {
	numero: number
	totalParcelas: number
	carneId: number
	razao: string
	creditos: number
}

const credits = (n: number) => `${formatNumber(n)} ${n === 1 ? 'crédito' : 'créditos'}`
const parcelOf = (r: NamedRenewal) => `parcela ${r.numero}/${r.totalParcelas} do ${carneName(r.carneId)} (${r.razao})`

export const renewalWords = {
	credits,
	/** What a number of credits buys: "1 crédito = 33 dias de licença". */
	days: (creditos: number, daysPerCredit: number) => `${credits(creditos)} = ${formatNumber(creditos * daysPerCredit)} dias de licença`,
	/** The carnê card's line. */
	card: (renovar: boolean, creditos: number) =>
		renovar ? `Renova a licença a cada parcela paga (${credits(creditos)} por parcela)` : 'Não renova a licença automaticamente',
	/** The top-bar notification when renewals wait for credits. */
	waitingMessage(fresh: NamedRenewal[], needed: number, available: number) {
		const what =
			fresh.length === 1
				? `A ${parcelOf(fresh[0])} foi paga, mas a licença não foi renovada`
				: `${fresh.length} parcelas pagas não renovaram a licença`
		return `${what}: faltam créditos (${credits(needed)} necessários, ${credits(available)} disponíveis). Compre créditos: a renovação é aplicada assim que eles chegarem.`
	},
	/** The WhatsApp message to the representative's own number. */
	whatsappMessage(nome: string, renewals: NamedRenewal[], link: string | null) {
		const needed = renewals.reduce((sum, r) => sum + r.creditos, 0)
		return [
			`Olá${nome ? `, ${nome}` : ''}! ${renewals.length === 1 ? 'Uma parcela paga não renovou' : `${renewals.length} parcelas pagas não renovaram`} a licença dos seus clientes por falta de créditos:`,
			...renewals.map((r) => `• ${parcelOf(r)}: ${credits(r.creditos)}`),
			`São necessários ${credits(needed)}. ${link ? `Compre créditos em ${link}` : 'Compre créditos no portal, em Créditos › Comprar Créditos'}: as renovações são aplicadas assim que eles chegarem.`
		].join('\n')
	}
}
