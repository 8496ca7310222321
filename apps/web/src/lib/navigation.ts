/**
 * Lets code outside React (the API client) move the router, without importing the router and
 * every page with it. The app registers the router's navigate once it is created.
 */
type Navigate = (to: string) => void

let navigateFunction: Navigate | undefined

export function registerNavigate(navigate: Navigate): void {
  navigateFunction = navigate
}

export function navigateTo(to: string): void {
  if (navigateFunction) navigateFunction(to)
  else window.location.assign(to)
}
