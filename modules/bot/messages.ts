/** The bot's words (pt-BR, WhatsApp formatting): one place, so the scripted test and the screens read the same. */
import { formatBrDate, formatBrl } from '../core'

export const words = {
	welcome: (vendor: string) =>
		`Olá! 👋 Sou o assistente virtual da *${vendor}*.\n\nPara começar, envie o *CNPJ* da sua empresa (só os números ou com a pontuação).`,
	askCnpj: 'Envie o *CNPJ* da sua empresa para continuar.',
	invalidCnpj: '❌ Esse CNPJ não é válido: confira os 14 caracteres e os dígitos verificadores e envie de novo.',
	/** The one answer to a valid CNPJ this phone cannot be served for, whether a client's or no one's: nothing to probe. */
	cnpjNotServed: (cnpj: string) =>
		`🔒 Não é possível atender o CNPJ ${cnpj} por este telefone.\n\nPor segurança, os dados da licença, as parcelas e os boletos de uma empresa só são enviados ao telefone cadastrado para ela. Confira o CNPJ e envie de novo.`,
	attendantOffer: 'Se preferir, digite *5* para falar com um atendente.',
	notRegistered:
		'🔒 Por segurança, os dados da licença, as parcelas e os boletos de uma empresa só são enviados ao telefone cadastrado para ela.\n\nDigite *5* para falar com um atendente.',
	menu: (razao: string, trustOption: boolean) =>
		[
			`Empresa: *${razao}*`,
			'',
			'Escolha uma opção (envie o número):',
			'1 - Situação da licença',
			'2 - Parcelas em aberto',
			'3 - Segunda via de boleto',
			'4 - Pagar por PIX',
			'5 - Falar com um atendente',
			...(trustOption ? ['6 - Liberar por 24 horas'] : []),
			'',
			'Para não receber mais avisos automáticos, envie PARAR.'
		].join('\n'),
	backToMenu: 'Envie *0* para ver o menu de novo.',
	licence: (input: {
		razao: string
		validade: string | null
		days: number | null
		systems: { name: string; blocked: boolean }[]
		releaseUntil: string | null
		trustOption: boolean
	}) => {
		const due =
			input.validade === null
				? 'Vencimento: não definido'
				: input.days! > 0
					? `Vencimento: ${formatBrDate(input.validade)} (${input.days} ${input.days === 1 ? 'dia restante' : 'dias restantes'})`
					: `Vencimento: ${formatBrDate(input.validade)} (vencida${input.days! < 0 ? ` há ${-input.days!} ${input.days === -1 ? 'dia' : 'dias'}` : ' hoje'})`
		return [
			`📋 *Situação da licença* — ${input.razao}`,
			due,
			'',
			...input.systems.map((s) => `• ${s.name}: ${s.blocked ? 'bloqueado' : 'liberado'}`),
			...(input.releaseUntil ? ['', `🔓 Liberação em confiança ativa até ${input.releaseUntil}.`] : []),
			...(input.trustOption ? ['', 'A licença venceu: envie *6* para liberar o uso por 24 horas enquanto a renovação é feita.'] : []),
			'',
			'Envie *0* para ver o menu de novo.'
		].join('\n')
	},
	trustReleased: (until: string) =>
		`🔓 Pronto! O uso dos sistemas está liberado até ${until} (24 horas). Renove a licença para não parar de novo.\n\nEnvie *0* para ver o menu de novo.`,
	trustRefused: (reason: string) => `Não foi possível liberar: ${reason}\n\nDigite *5* para falar com um atendente.`,
	noParcels: '✅ Não há parcelas em aberto para a sua empresa.\n\nEnvie *0* para ver o menu de novo.',
	parcels: (lines: string[]) => ['📄 *Parcelas em aberto*', '', ...lines, '', 'Envie *0* para ver o menu de novo.'].join('\n'),
	pickParcel: (lines: string[]) =>
		[
			'🧾 *Segunda via de boleto*',
			'',
			...lines,
			'',
			'Envie o *número da parcela* (1, 2, …) para receber a segunda via, ou *0* para voltar.'
		].join('\n'),
	parcelNotInList: 'Não entendi: envie o número de uma parcela da lista, ou *0* para voltar ao menu.',
	boleto: (p: {
		numero: number
		total: number
		valorCentavos: number
		vencimento: string
		boletoUrl: string | null
		line: string | null
		pix: string | null
	}) =>
		[
			`🧾 *Segunda via — Parcela ${p.numero}/${p.total}*`,
			`Valor: ${formatBrl(p.valorCentavos)}`,
			`Vencimento: ${formatBrDate(p.vencimento)}`,
			...(p.boletoUrl ? ['', `Boleto: ${p.boletoUrl}`] : []),
			...(p.line ? ['', 'Linha digitável:', p.line] : []),
			...(p.pix ? ['', 'PIX copia e cola:', p.pix] : []),
			'',
			'Envie *0* para ver o menu de novo.'
		].join('\n'),
	parcelLine: (i: number, p: { numero: number; total: number; valorCentavos: number; vencimento: string; status: string }) =>
		`${i}) Parcela ${p.numero}/${p.total} — ${formatBrl(p.valorCentavos)} — vence ${formatBrDate(p.vencimento)}${p.status === 'OVERDUE' ? ' (vencida)' : ''}`,
	textOnly: 'Por enquanto só entendo mensagens de texto 🙂 Escreva, por favor: o *CNPJ* da sua empresa ou o número de uma opção do menu.',
	slowDown: '⏳ Recebi muitas mensagens em pouco tempo: aguarde um instante… Depois de um minuto sem novas mensagens eu volto a responder.',
	handOff: '👤 Certo! Um atendente vai continuar a conversa por aqui em instantes.',
	optedOut: 'Pronto: este número não receberá mais avisos automáticos. Para voltar a recebê-los, envie VOLTAR.',
	optedIn: 'Pronto: este número voltará a receber os avisos automáticos. Para parar, envie PARAR.'
}
