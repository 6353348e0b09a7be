import { describe, expect, it } from 'vitest'
import {
  notificationDetail,
  notificationReason,
  notificationStatusText,
  resendToast,
  unnotifiedCountLabel,
} from '@/lib/admin/notification-format'

describe("the inbox's notification texts", () => {
  it('says when the agency was told, with the date formatted like the message dates', () => {
    expect(notificationStatusText({ notified_at: '2026-12-10T13:05:00Z' })).toBe(
      'Notification envoyée le 10 décembre 2026 à 14:05',
    )
    expect(notificationStatusText({ notified_at: null })).toBe('Notification non envoyée')
  })

  it('says why not, when known: being sent, the next automatic attempt, or the attempts given up', () => {
    const state = { notification_next_attempt_at: null, notification_attempts: 0 }
    expect(notificationDetail({ ...state, notification_status: 'never_asked' })).toBeNull()
    expect(notificationDetail({ ...state, notification_status: 'sending', notification_attempts: 1 })).toBe(
      'envoi en cours',
    )
    expect(
      notificationDetail({
        notification_status: 'delivery_failed',
        notification_attempts: 2,
        notification_next_attempt_at: '2026-12-10T13:10:00Z',
      }),
    ).toBe('nouvel essai automatique le 10 décembre 2026 à 14:10')
    expect(notificationDetail({ ...state, notification_status: 'delivery_failed', notification_attempts: 4 })).toBe(
      'échec après 4 tentatives',
    )
    expect(notificationDetail({ ...state, notification_status: 'delivery_failed', notification_attempts: 1 })).toBe(
      'échec après 1 tentative',
    )
  })

  it('counts the messages never notified with French plurals', () => {
    expect([0, 1, 2].map(unnotifiedCountLabel)).toEqual([
      '0 message non notifié',
      '1 message non notifié',
      '2 messages non notifiés',
    ])
  })

  it('answers each outcome of a resend in French, refusals as errors', () => {
    expect(resendToast('sent')).toEqual({ variant: 'success', title: 'Notification renvoyée' })
    expect(resendToast('too_soon')).toEqual({
      variant: 'error',
      title: 'Veuillez patienter une minute avant de renvoyer cette notification.',
    })
    expect(resendToast('gone').title).toBe("Ce message n'existe plus")
    expect(resendToast('delivery_failed').title).toBe("La notification n'a pas pu être envoyée")
    expect(resendToast('error').variant).toBe('error')
  })

  it('says in plain French why a notification failed, from the reason the function recorded', () => {
    expect(notificationReason('ETIMEDOUT: Greeting never received')).toBe("le serveur de messagerie n'a pas répondu")
    expect(notificationReason('ECONNECTION: connect ECONNREFUSED 127.0.0.1:54325')).toBe(
      'le serveur de messagerie est injoignable',
    )
    expect(
      notificationReason("EENVELOPE: Can't send mail - all recipients were rejected: 550 5.1.1 <x@y.fr>: unknown"),
    ).toBe('adresse refusée par le serveur de messagerie')
    expect(notificationReason('EAUTH: Invalid login: 535 5.7.8 Authentication failed')).toBe(
      'le serveur de messagerie a refusé nos identifiants',
    )
    expect(notificationReason('EMESSAGE: 451 4.3.0 try again later')).toBe(
      'le serveur de messagerie a demandé de réessayer plus tard',
    )
    expect(notificationReason('Something else entirely')).toBe('le serveur de messagerie a renvoyé une erreur')
    expect(notificationReason(null)).toBeNull()
  })
})
