/** Contact details shown on the login screen. */
export const BRAND = {
	name: 'K-Licenças',
	vendor: 'K Sistemas',
	email: 'suporte@ksistemas.com.br',
	phone: '(85) 3000-0000'
}
