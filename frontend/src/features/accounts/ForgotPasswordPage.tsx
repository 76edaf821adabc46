import { AppLayout } from "@/components/AppLayout";

export default function ForgotPasswordPage() {
  return <AppLayout>{null}</AppLayout>;
}
