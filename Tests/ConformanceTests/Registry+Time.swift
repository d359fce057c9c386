import CombineEx
import CombineExTesting
import Testing

extension Registry {
  // MARK: Time (driven by the harness's clock, a TestScheduler)

  static let time: [RegistryEntry] = [
    .generic(
      "Publishers.Debounce",
      [
        CaseBuilder("debounce") { env in
          let upstream = env.ints()
          return upstream.debounce(for: .seconds(2), scheduler: env.clock().scheduler)
        }
      ]),
    .generic(
      "Publishers.Delay",
      [
        CaseBuilder("delay", traits: .storesValues) { env in
          let upstream = env.trackedInts()
          return upstream.delay(for: .seconds(2), scheduler: env.clock().scheduler)
        }
      ]),
    .generic(
      "Publishers.Throttle",
      [
        CaseBuilder("throttle(latest: true)", traits: .storesValues) { env in
          let upstream = env.trackedInts()
          return upstream.throttle(for: .seconds(2), scheduler: env.clock().scheduler, latest: true)
        },
        CaseBuilder("throttle(latest: false)") { env in
          let upstream = env.ints()
          return upstream.throttle(
            for: .seconds(2), scheduler: env.clock().scheduler, latest: false)
        },
      ]),
    .generic(
      "Publishers.Timeout",
      [
        CaseBuilder("timeout") { env in
          let upstream = env.ints()
          return upstream.timeout(.seconds(3), scheduler: env.clock().scheduler)
        },
        CaseBuilder("timeout with a custom error") { env in
          let upstream = env.ints()
          let canary = env.canary
          return upstream.timeout(
            .seconds(3), scheduler: env.clock().scheduler,
            customError: { canary.pass(ConformanceError(50)) })
        },
      ]),
    .generic(
      "Publishers.MeasureInterval",
      [
        // A link with no subscription of its own: it hands the upstream's to the subscriber.
        CaseBuilder("measureInterval", traits: .passThrough) { env in
          let upstream = env.ints()
          return upstream.measureInterval(using: env.clock().scheduler)
        }
      ]),
    .generic(
      "Publishers.ReceiveOn",
      [
        CaseBuilder("receive(on:)", traits: .storesValues) { env in
          let upstream = env.trackedInts()
          return upstream.receive(on: env.clock().scheduler)
        },
        CaseBuilder("receive(on: ImmediateScheduler)") { env in
          env.ints().receive(on: ImmediateScheduler.shared)
        },
        // A subscriber of the core that releases its subscription takes the lock-free path.
        CaseBuilder("receive(on: ImmediateScheduler).removeDuplicates()") { env in
          env.ints().receive(on: ImmediateScheduler.shared).removeDuplicates()
        },
      ]),
    .generic(
      "Publishers.SubscribeOn",
      [
        CaseBuilder("subscribe(on:)") { env in
          let upstream = env.ints()
          return upstream.subscribe(on: env.clock().scheduler)
        }
      ]),
    .generic(
      "Publishers.CollectByTime",
      [
        CaseBuilder("collect(.byTime)", traits: .storesValues) { env in
          let upstream = env.trackedInts()
          return upstream.collect(.byTime(env.clock().scheduler, .seconds(2)))
        },
        CaseBuilder("collect(.byTimeOrCount)") { env in
          let upstream = env.ints()
          return upstream.collect(.byTimeOrCount(env.clock().scheduler, .seconds(2), 2))
        },
      ]),
    .generic(
      "Publishers.Ticker",
      [
        CaseBuilder("ticker, connected", traits: .neverCompletes) { env in
          let timer = env.clock().scheduler.ticker(every: .seconds(1))
          env.retain(AnyCancellable(timer.connect()))
          return timer
        }
      ]),
    .tailored(
      "Timer.TimerPublisher",
      reason:
        "fires on a RunLoop in real time, which the harness cannot drive without waiting; "
        + "its subscribers are those of a PassthroughSubject, checked generically",
      checkedBy: "TailoredTests.timerPublisherConnectsAndCancels"),
    .generic(
      "MarblePublisher",
      [
        CaseBuilder("hotPublisher(\"-a-b--c-|\")") { env in
          env.clock().scheduler.hotPublisher("-a-b--c-|", values: ["a": 1, "b": 2, "c": 3])
        },
        CaseBuilder("hotPublisher(\"-a-#\")") { env in
          env.clock().scheduler.hotPublisher(
            "-a-#", values: ["a": 1], failure: ConformanceError(6))
        },
      ]),
  ]

  // MARK: Lifetimes (CombineEx)

  static let lifetimes: [RegistryEntry] = [
    .generic(
      "Publishers.PrefixDuring",
      [
        CaseBuilder("prefix(during:) a lifetime that lasts") { env in
          let holder = TokenHolder()
          env.retain(holder)
          return env.ints().prefix(during: holder.token!.lifetime)
        },
        CaseBuilder("prefix(during:) a lifetime that ends") { env in
          let upstream = env.ints()
          let holder = TokenHolder()
          let lifetime = holder.token!.lifetime
          env.drive(
            "the lifetime", keepAlive: holder, canFail: false, send: { _ in },
            complete: { _ in holder.token = nil })
          return upstream.prefix(during: lifetime)
        },
        CaseBuilder("prefix(during:) an ended lifetime") { env in
          env.ints().prefix(during: Lifetime.ended)
        },
      ])
  ]
}

/// Owns a lifetime's token; setting `token` to nil ends the lifetime.
final class TokenHolder {
  var token: Lifetime.Token? = Lifetime.Token()
}
