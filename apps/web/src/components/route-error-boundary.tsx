import { Component, type ReactNode } from 'react'
import { RouteErrorPage } from './route-error-page.tsx'

interface RouteErrorBoundaryProps {
  children: ReactNode
  /** A new value (the path) clears a caught error: moving to another page leaves the error page. */
  resetKey?: string
}

interface RouteErrorBoundaryState {
  error: unknown
  resetKey?: string
}

/** Shows the error page in place of its children when they throw while rendering or fail to load. */
export class RouteErrorBoundary extends Component<RouteErrorBoundaryProps, RouteErrorBoundaryState> {
  override state: RouteErrorBoundaryState = { error: undefined, resetKey: this.props.resetKey }

  static getDerivedStateFromError(error: unknown): Partial<RouteErrorBoundaryState> {
    return { error: error ?? new Error('Unknown error') }
  }

  static getDerivedStateFromProps(
    props: RouteErrorBoundaryProps,
    state: RouteErrorBoundaryState,
  ): Partial<RouteErrorBoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { error: undefined, resetKey: props.resetKey }
  }

  override render() {
    return this.state.error === undefined ? this.props.children : <RouteErrorPage error={this.state.error} />
  }
}
