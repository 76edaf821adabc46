import { lazy, Suspense, useEffect } from "react";
import { Route, Switch, useRoute } from "wouter";
import { ErrorBoundary } from "./components/ErrorBoundary";
import { PageSkeleton } from "./components/PageSkeleton";
import { Toaster } from "./components/toast";
import { FeedbackWidget } from "./features/feedback/FeedbackWidget";

// Every page is its own chunk: a visitor from a WhatsApp link downloads only the page they open.
// The public pages are here; the signed-in side's pages (organizers, treasurers, ushers) are listed in
// OrganizerRoutes, a chunk of its own, so no public page's first load carries their table.
// Keep both tables in step with CLIENT_ROUTES in backend/common/client_routes.py (and lib/clientRoutes.ts).
const OrganizerRoutes = lazy(() => import("./OrganizerRoutes"));
const LandingPage = lazy(() => import("./features/landing/LandingPage"));
const HowItWorksPage = lazy(() => import("./features/landing/HowItWorksPage"));
const SignInPage = lazy(() => import("./features/accounts/SignInPage"));
const SignUpPage = lazy(() => import("./features/accounts/SignUpPage"));
const ForgotPasswordPage = lazy(() => import("./features/accounts/ForgotPasswordPage"));
const ResetPasswordPage = lazy(() => import("./features/accounts/ResetPasswordPage"));
const ExplorePage = lazy(() => import("./features/campaigns/ExplorePage"));
const CampaignPage = lazy(() => import("./features/campaigns/CampaignPage"));
// The campaign's page shows the pledges feature's lists, the spending feature's section and the
// champions' leaderboards: composed here, at the route (CampaignPageParts).
const CampaignActivity = lazy(() => import("./features/pledges/CampaignActivity"));
const PledgeManagement = lazy(() => import("./features/pledges/PledgeManagement"));
const SpendingSection = lazy(() =>
  import("./features/spending/SpendingSection").then((module) => ({ default: module.SpendingSection })),
);
const ChampionsSection = lazy(() => import("./features/champions/ChampionsSection"));
const campaignPageParts = {
  Activity: CampaignActivity,
  Management: PledgeManagement,
  Spending: SpendingSection,
  Champions: ChampionsSection,
};
const PosterPage = lazy(() => import("./features/campaigns/PosterPage"));
const LiveScreenPage = lazy(() => import("./features/events/LiveScreenPage"));
const SampleGrantPage = lazy(() => import("./features/grants/SampleGrantPage"));
const FundraiserSuccessPage = lazy(() => import("./features/fundraiser/FundraiserSuccessPage"));
const PledgeDialogPage = lazy(() => import("./features/pledges/PledgeDialogPage"));
const PledgePage = lazy(() => import("./features/pledges/PledgePage"));
const PledgeCodePage = lazy(() => import("./features/pledges/PledgeCodePage"));
const DonatePage = lazy(() => import("./features/pledges/DonatePage"));
const MinistryPage = lazy(() => import("./features/pledges/MinistryPage"));
const InvitationPage = lazy(() => import("./features/organizations/InvitationPage"));
const PrivacyPage = lazy(() => import("./features/privacy/PrivacyPage"));
const SpendingPage = lazy(() => import("./features/spending/SpendingPage"));

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
          <Route path={/^\/campaign\/(?<id>\d+)\/?$/}>
            <CampaignPage parts={campaignPageParts} />
          </Route>
          <Route path={/^\/campaign\/(?<id>\d+)\/pledge\/?$/} component={PledgeDialogPage} />
          <Route path={/^\/campaign\/(?<id>\d+)\/donate\/?$/} component={DonatePage} />
          <Route path={/^\/campaign\/(?<id>\d+)\/poster\/?$/} component={PosterPage} />
          <Route path={/^\/campaign\/(?<id>\d+)\/live\/?$/} component={LiveScreenPage} />
          <Route path={/^\/campaign\/(?<id>\d+)\/spending\/?$/} component={SpendingPage} />
          <Route path="/icc-imara-donate" component={MinistryPage} />
          <Route path={/^\/pledge\/(?<id>\d+)\/?$/} component={PledgePage} />
          {/* A pledge code: six characters and a check character (backend/pledges/codes.py). */}
          <Route path={/^\/pledges\/(?<code>[2-9a-hjkmnp-zA-HJKMNP-Z]{7})\/?$/i} component={PledgeCodePage} />
          <Route path="/fundraiser-success" component={FundraiserSuccessPage} />
          <Route path="/grantfunding/sample-grant" component={SampleGrantPage} />
          <Route path="/invitation" component={InvitationPage} />
          {/* Everything else: the signed-in side's own table, and the 404 page at its end. */}
          <Route component={OrganizerRoutes} />
        </Switch>
        <PageIsTheApps />
      </Suspense>
      {!onBigScreen && <FeedbackWidget />}
      <Toaster />
    </ErrorBoundary>
  );
}

/** Marks <html data-app="ready"> once the page's route is the app's: its effect runs when the route's
 * Suspense boundary has rendered, or hydrated the server's HTML (until then a server-rendered page's
 * links and forms are plain HTML ones). The end-to-end tests wait for it (e2e/support.ts). */
function PageIsTheApps() {
  useEffect(() => {
    document.documentElement.dataset.app = "ready";
  }, []);
  return null;
}
