import { Anchor, type CSSVariablesResolver, createTheme, Notification } from '@mantine/core'

// Shade 8 keeps white text on primary buttons above the 4.5:1 contrast of WCAG AA. Links are
// always underlined: in dark mode the link colour alone does not stand out from the text around it.
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  components: {
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    // A menu's focus placeholder is a focusable child of role="menu" that is not a menu item, which
    // screen readers stumble on (axe: aria-required-children); without it the items take the focus.
    // A plain object, not Menu.extend: importing Menu here would put it in the first load.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // A toast's message under its title is grey by default (3.3:1 on white): the body colour instead.
    Notification: Notification.extend({ styles: { description: { color: 'var(--mantine-color-text)' } } }),
  },
})

/**
 * Mantine's default palette falls below WCAG AA's 4.5:1 text contrast in two places: the text of
 * light badges and buttons in light mode (shade 9 on shade 1, e.g. green 3.8:1, yellow 2.7:1), and
 * white on the filled shade of the bright colours (green 3.5:1, yellow 2.5:1). These are the same
 * hues darkened just enough to reach 4.6:1 (light text against the hover shade 2 too).
 */
const lightVariantText: Record<string, string> = {
  red: '#ad2424',
  violet: '#5939b8',
  indigo: '#3249b7',
  blue: '#165a9a',
  cyan: '#0a697a',
  teal: '#077050',
  green: '#237133',
  lime: '#48730a',
  yellow: '#a15300',
  orange: '#a9380c',
}
const filled: Record<string, [fill: string, hover: string]> = {
  red: ['#dc3030', '#c22a2a'],
  cyan: ['#0c8093', '#0b7181'],
  teal: ['#08835e', '#077353'],
  green: ['#278539', '#227532'],
  lime: ['#4e800b', '#45710a'],
  yellow: ['#a86200', '#945600'],
  orange: ['#c84d0a', '#b04409'],
}

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: Object.fromEntries(
    Object.entries(filled).flatMap(([color, [fill, hover]]) => [
      [`--mantine-color-${color}-filled`, fill],
      [`--mantine-color-${color}-filled-hover`, hover],
    ]),
  ),
  light: {
    ...Object.fromEntries(
      Object.entries(lightVariantText).map(([color, text]) => [`--mantine-color-${color}-light-color`, text]),
    ),
  },
  dark: {},
})
