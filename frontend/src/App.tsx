import { lazy, Suspense } from "react";
import { Route, Switch } from "wouter";
import { ErrorBoundary } from "./components/ErrorBoundary";
import { PageSkeleton } from "./components/PageSkeleton";
import { Toaster } from "./components/toast";
import { RequireAuth } from "./features/accounts/RequireAuth";
import { FeedbackWidget } from "./features/feedback/FeedbackWidget";

// Every page is its own chunk: a visitor from a WhatsApp link downloads only the page they open.
// Keep this table in step with CLIENT_ROUTES in backend/common/spa.py.
const LandingPage = lazy(() => import("./features/landing/LandingPage"));
const HowItWorksPage = lazy(() => import("./features/landing/HowItWorksPage"));
const SignInPage = lazy(() => import("./features/accounts/SignInPage"));
const SignUpPage = lazy(() => import("./features/accounts/SignUpPage"));
const ForgotPasswordPage = lazy(() => import("./features/accounts/ForgotPasswordPage"));
const ResetPasswordPage = lazy(() => import("./features/accounts/ResetPasswordPage"));
const ProfilePage = lazy(() => import("./features/accounts/ProfilePage"));
const DashboardPage = lazy(() => import("./features/dashboard/DashboardPage"));
const NotFoundPage = lazy(() => import("./components/NotFoundPage"));

export function App() {
  return (
    <ErrorBoundary>
      <Suspense fallback={<PageSkeleton />}>
        <Switch>
          <Route path="/" component={LandingPage} />
          <Route path="/how-it-works" component={HowItWorksPage} />
          <Route path="/signin" component={SignInPage} />
          <Route path="/signup" component={SignUpPage} />
          <Route path="/forgot-password" component={ForgotPasswordPage} />
          <Route path="/reset-password" component={ResetPasswordPage} />
          <Route path="/dashboard">
            <RequireAuth>
              <DashboardPage />
            </RequireAuth>
          </Route>
          <Route path="/home">
            <RequireAuth>
              <DashboardPage />
            </RequireAuth>
          </Route>
          <Route path="/profile">
            <RequireAuth>
              <ProfilePage />
            </RequireAuth>
          </Route>
          <Route component={NotFoundPage} />
        </Switch>
      </Suspense>
      <FeedbackWidget />
      <Toaster />
    </ErrorBoundary>
  );
}
