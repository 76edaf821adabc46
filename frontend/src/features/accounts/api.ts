import { msg } from "@lingui/core/macro";
import { queryOptions } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "@/lib/api/client";
import { i18n } from "@/lib/i18n";

/** Signs in; the answer is the new session. */
export async function signIn(body: Schemas["SignInIn"], fallback?: string) {
  return unwrap(await api.POST("/api/auth/signin", { body }), fallback);
}

/** Creates the account and signs it in; the answer is the new session. */
export async function signUp(body: Schemas["SignUpIn"], fallback?: string) {
  return unwrap(await api.POST("/api/signup", { body }), fallback);
}

/** E-mails a reset link (the same answer whether or not the address has an account). */
export async function requestPasswordReset(body: Schemas["PasswordResetIn"], fallback?: string) {
  return unwrap(await api.POST("/api/auth/password-reset", { body }), fallback);
}

/** Sets a new password with the e-mailed link's uid and token. */
export async function resetPassword(body: Schemas["PasswordResetConfirmIn"], fallback?: string) {
  return unwrap(await api.POST("/api/auth/password-reset/confirm", { body }), fallback);
}

/** Changes the password of the signed-in user. */
export async function changePassword(body: Schemas["PasswordChangeIn"], fallback?: string) {
  return unwrap(await api.POST("/api/profile/password", { body }), fallback);
}

/** Deletes the account (the password confirms it); the answer is the signed-out session. */
export async function deleteAccount(body: Schemas["AccountDeleteIn"], fallback?: string) {
  return unwrap(await api.POST("/api/profile/delete", { body }), fallback);
}

/** Saves the profile; the answer is the profile as stored. */
export async function saveProfile(body: Schemas["ProfileIn"], fallback?: string) {
  return unwrap(await api.PATCH("/api/profile", { body }), fallback);
}

export const PROFILE_KEY = ["profile"] as const;

/** The signed-in user's profile. */
export const profileOptions = () =>
  queryOptions({
    queryKey: PROFILE_KEY,
    queryFn: async () =>
      unwrap(
        await api.GET("/api/profile"),
        i18n._(msg`An error occurred while fetching your profile. Please try again.`),
      ),
  });

/** Texts a 6-digit code to `phone` (the account's own when empty), valid for 10 minutes. */
export async function sendPhoneCode(body: Schemas["PhoneVerificationIn"], fallback?: string) {
  return unwrap(await api.POST("/api/profile/phone-verification", { body }), fallback);
}

/** Proves the number with the texted code; the answer is the profile, its phone now verified. */
export async function confirmPhoneCode(body: Schemas["PhoneCodeIn"], fallback?: string) {
  return unwrap(await api.POST("/api/profile/phone-verification/confirm", { body }), fallback);
}
