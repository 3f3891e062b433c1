export {
	getSetting,
	openSetting,
	sealPlaintextSettings,
	getSettingsMap,
	saveSettings,
	getAutoLogoutConfig,
	isSettingKey,
	listSettings,
	getThemeSettings,
	isMaskedSecret,
	lastSettingsUpdate
} from './service'
export * from './model'
export { settings } from './schema'
