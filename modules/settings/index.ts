export { getSetting, getSettingsMap, saveSettings, getAutoLogoutConfig, isSettingKey, listSettings, maskSecret } from './service'
export { SETTING_DEFINITIONS, AutoLogoutConfig } from './model'
export type { SettingKey } from './model'
export { settings } from './schema'
