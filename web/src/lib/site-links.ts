/** External destinations of the shell's menus and footer. */
export const BLOG_URL = 'https://blog.toppubs.example';
export const SUPPORT_EMAIL = 'support@toppubs.example';
export const HELP_URL = `mailto:${SUPPORT_EMAIL}`;
/** A plain link to the logout page, which ends the session on the server and forgets the user. */
export const LOGOUT_PATH = '/logout';
export const NOTIFICATIONS_PATH = '/notifications';
