import { AppLayout } from "@/components/AppLayout";

export default function ResetPasswordPage() {
  return <AppLayout>{null}</AppLayout>;
}
