import { lazy, Suspense } from "react";
import { Route, Switch, useRoute } from "wouter";
import { ErrorBoundary } from "./components/ErrorBoundary";
import { PageSkeleton } from "./components/PageSkeleton";
import { Toaster } from "./components/toast";
import { RequireAuth } from "./features/accounts/RequireAuth";
import { FeedbackWidget } from "./features/feedback/FeedbackWidget";

// Every page is its own chunk: a visitor from a WhatsApp link downloads only the page they open.
// Keep this table in step with CLIENT_ROUTES in backend/config/spa.py.
const LandingPage = lazy(() => import("./features/landing/LandingPage"));
const HowItWorksPage = lazy(() => import("./features/landing/HowItWorksPage"));
const SignInPage = lazy(() => import("./features/accounts/SignInPage"));
const SignUpPage = lazy(() => import("./features/accounts/SignUpPage"));
const ForgotPasswordPage = lazy(() => import("./features/accounts/ForgotPasswordPage"));
const ResetPasswordPage = lazy(() => import("./features/accounts/ResetPasswordPage"));
const ProfilePage = lazy(() => import("./features/accounts/ProfilePage"));
const MyPledgesPage = lazy(() => import("./features/pledges/MyPledgesPage"));
const DashboardPage = lazy(() => import("./features/dashboard/DashboardPage"));
const ExplorePage = lazy(() => import("./features/campaigns/ExplorePage"));
const CampaignPage = lazy(() => import("./features/campaigns/CampaignPage"));
const AnalyticsPage = lazy(() => import("./features/analytics/AnalyticsPage"));
const EditCampaignPage = lazy(() => import("./features/campaigns/EditCampaignPage"));
const PosterPage = lazy(() => import("./features/ussd/PosterPage"));
const LiveScreenPage = lazy(() => import("./features/events/LiveScreenPage"));
const EventsPage = lazy(() => import("./features/events/EventsPage"));
const DeskPage = lazy(() => import("./features/desk/DeskPage"));
const GrantFundingPage = lazy(() => import("./features/grants/GrantFundingPage"));
const SampleGrantPage = lazy(() => import("./features/grants/SampleGrantPage"));
const CreateCampaignPage = lazy(() => import("./features/wizard/CreateCampaignPage"));
const StartFundraiserPage = lazy(() => import("./features/fundraiser/StartFundraiserPage"));
const FundraiserSuccessPage = lazy(() => import("./features/fundraiser/FundraiserSuccessPage"));
const PledgeDialogPage = lazy(() => import("./features/pledges/PledgeDialogPage"));
const PledgePage = lazy(() => import("./features/pledges/PledgePage"));
const PledgeCodePage = lazy(() => import("./features/pledges/PledgeCodePage"));
const DonatePage = lazy(() => import("./features/pledges/DonatePage"));
const MinistryPage = lazy(() => import("./features/pledges/MinistryPage"));
const OrganizationsPage = lazy(() => import("./features/organizations/OrganizationsPage"));
const OrganizationPage = lazy(() => import("./features/organizations/OrganizationPage"));
const CollectionAccountsPage = lazy(() => import("./features/organizations/CollectionAccountsPage"));
const InvitationPage = lazy(() => import("./features/organizations/InvitationPage"));
const PrivacyPage = lazy(() => import("./features/privacy/PrivacyPage"));
const MpesaConnectionPage = lazy(() => import("./features/payments/MpesaConnectionPage"));
const CardPaymentsPage = lazy(() => import("./features/payments/CardPaymentsPage"));
const StatementImportPage = lazy(() => import("./features/statements/StatementImportPage"));
const NotFoundPage = lazy(() => import("./components/NotFoundPage"));

// A projector shows the big screen: nothing floats over it.
const BIG_SCREEN = /^\/campaign\/\d+\/live\/?$/;

export function App() {
  const [onBigScreen] = useRoute(BIG_SCREEN);
  return (
    <ErrorBoundary>
      <Suspense fallback={<PageSkeleton />}>
        <Switch>
          <Route path="/" component={LandingPage} />
          <Route path="/how-it-works" component={HowItWorksPage} />
          <Route path="/privacy" component={PrivacyPage} />
          <Route path="/signin" component={SignInPage} />
          <Route path="/signup" component={SignUpPage} />
          <Route path="/forgot-password" component={ForgotPasswordPage} />
          <Route path="/reset-password" component={ResetPasswordPage} />
          <Route path="/explore" component={ExplorePage} />
          {/* Digits only: /campaign/abc is the 404 page, as on the server. */}
          <Route path={/^\/campaign\/(?<id>\d+)\/?$/} component={CampaignPage} />
          <Route path={/^\/campaign\/(?<id>\d+)\/pledge\/?$/} component={PledgeDialogPage} />
          <Route path={/^\/campaign\/(?<id>\d+)\/donate\/?$/} component={DonatePage} />
          <Route path={/^\/campaign\/(?<id>\d+)\/poster\/?$/} component={PosterPage} />
          <Route path={/^\/campaign\/(?<id>\d+)\/live\/?$/} component={LiveScreenPage} />
          {/* Signed in, or a volunteer's desk passcode: the page asks the server which. */}
          <Route path={/^\/campaign\/(?<id>\d+)\/desk\/?$/} component={DeskPage} />
          <Route path={/^\/campaign\/(?<id>\d+)\/events\/?$/}>
            <RequireAuth>
              <EventsPage />
            </RequireAuth>
          </Route>
          <Route path={/^\/campaign\/(?<id>\d+)\/analytics\/?$/}>
            <RequireAuth>
              <AnalyticsPage />
            </RequireAuth>
          </Route>
          <Route path="/icc-imara-donate" component={MinistryPage} />
          <Route path={/^\/edit-campaign\/(?<id>\d+)\/?$/} component={EditCampaignPage} />
          <Route path={/^\/campaign\/(?<id>\d+)\/edit\/?$/} component={EditCampaignPage} />
          {/* Before any /pledge/{id} route: create-campaign is not an id. */}
          <Route path="/pledge/create-campaign">
            <RequireAuth>
              <CreateCampaignPage />
            </RequireAuth>
          </Route>
          <Route path={/^\/pledge\/(?<id>\d+)\/?$/} component={PledgePage} />
          {/* A pledge code: six characters and a check character (backend/pledges/codes.py). */}
          <Route path={/^\/pledges\/(?<code>[2-9a-hjkmnp-zA-HJKMNP-Z]{7})\/?$/i} component={PledgeCodePage} />
          <Route path="/start-fundraiser">
            <RequireAuth>
              <StartFundraiserPage />
            </RequireAuth>
          </Route>
          <Route path="/fundraiser-success" component={FundraiserSuccessPage} />
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
          <Route path="/grantfunding/sample-grant" component={SampleGrantPage} />
          <Route path="/grantfunding">
            <RequireAuth>
              <GrantFundingPage />
            </RequireAuth>
          </Route>
          <Route path="/organizations">
            <RequireAuth>
              <OrganizationsPage />
            </RequireAuth>
          </Route>
          <Route path={/^\/organizations\/(?<id>\d+)\/?$/}>
            <RequireAuth>
              <OrganizationPage />
            </RequireAuth>
          </Route>
          <Route path={/^\/organizations\/(?<id>\d+)\/collection-accounts\/?$/}>
            <RequireAuth>
              <CollectionAccountsPage />
            </RequireAuth>
          </Route>
          <Route path="/invitation" component={InvitationPage} />
          <Route path={/^\/orgs\/(?<organization>\d+)\/collection-accounts\/(?<account>\d+)\/mpesa\/?$/}>
            <RequireAuth>
              <MpesaConnectionPage />
            </RequireAuth>
          </Route>
          <Route path={/^\/orgs\/(?<organization>\d+)\/collection-accounts\/(?<account>\d+)\/cards\/?$/}>
            <RequireAuth>
              <CardPaymentsPage />
            </RequireAuth>
          </Route>
          <Route path={/^\/orgs\/(?<organization>\d+)\/statements\/?$/}>
            <RequireAuth>
              <StatementImportPage />
            </RequireAuth>
          </Route>
          <Route path="/profile">
            <RequireAuth>
              <ProfilePage />
            </RequireAuth>
          </Route>
          <Route path="/my-pledges">
            <RequireAuth>
              <MyPledgesPage />
            </RequireAuth>
          </Route>
          <Route component={NotFoundPage} />
        </Switch>
      </Suspense>
      {!onBigScreen && <FeedbackWidget />}
      <Toaster />
    </ErrorBoundary>
  );
}
