// auth's public surface for other features (the account page's change-password dialog).
export { passwordProblem } from '../../lib/password-rules';
export { PasswordTexts } from './texts';
