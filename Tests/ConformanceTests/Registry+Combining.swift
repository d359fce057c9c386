import CombineEx

extension Registry {
  // MARK: Combining and recovering

  static let combining: [RegistryEntry] = [
    .generic(
      "Publishers.Catch",
      [
        CaseBuilder("catch") { env in
          let canary = env.canary
          return env.ints().catch { [unowned env] _ in canary.pass(env.ints()) }
        },
        CaseBuilder("catch with Just") { env in env.ints().catch { _ in Just(-1) } },
      ]),
    .generic(
      "Publishers.TryCatch",
      [
        CaseBuilder("tryCatch") { env in
          let canary = env.canary
          return env.ints().tryCatch { [unowned env] error in
            if canary.pass(error.id) > 6 { throw ConformanceError(60) }
            return env.ints()
          }
        }
      ]),
    .generic(
      "Publishers.Retry",
      [
        CaseBuilder("retry(2)") { env in env.ints().retry(2) },
        CaseBuilder("retry(0)") { env in env.ints().retry(0) },
      ]),
    .generic(
      "Publishers.Concatenate",
      [
        CaseBuilder("append(publisher)") { env in env.ints().append(env.ints()) },
        CaseBuilder("prepend(values)") { env in env.ints().prepend(7, 8) },
        CaseBuilder("append(values)") { env in env.ints().append(7, 8) },
      ]),
    .generic(
      "Publishers.FlatMap",
      [
        CaseBuilder("flatMap", traits: .timingDependent) { env in
          let canary = env.canary
          return env.ints().flatMap { [unowned env] _ in canary.pass(env.ints()) }
        },
        CaseBuilder(
          "flatMap(maxPublishers: .max(1))", traits: [.timingDependent, .waitsOnAnotherUpstream]
        ) { env in
          env.ints().flatMap(maxPublishers: .max(1)) { [unowned env] _ in env.ints() }
        },
        CaseBuilder("flatMap to Just", traits: .timingDependent) { env in
          env.ints().flatMap { Just($0 * 2) }
        },
      ]),
    .generic(
      "Publishers.SwitchToLatest",
      [
        CaseBuilder("switchToLatest", traits: .timingDependent) { env in
          env.source(value: { [unowned env] _ in env.ints() }, failure: ConformanceError.init)
            .switchToLatest()
        }
      ]),
    .generic(
      "Publishers.Merge",
      [
        CaseBuilder("merge(with:)", traits: [.timingDependent, .storesValues]) { env in
          env.trackedInts().merge(with: env.trackedInts())
        }
      ]),
    .generic(
      "Publishers.Merge3",
      [
        CaseBuilder("Merge3", traits: .timingDependent) { env in
          Publishers.Merge3(env.ints(), env.ints(), env.ints())
        }
      ]),
    .generic(
      "Publishers.Merge4",
      [
        CaseBuilder("Merge4", traits: .timingDependent) { env in
          Publishers.Merge4(env.ints(), env.ints(), env.ints(), env.ints())
        }
      ]),
    .generic(
      "Publishers.Merge5",
      [
        CaseBuilder("Merge5", traits: .timingDependent) { env in
          Publishers.Merge5(env.ints(), env.ints(), env.ints(), env.ints(), env.ints())
        }
      ]),
    .generic(
      "Publishers.Merge6",
      [
        CaseBuilder("Merge6", traits: .timingDependent) { env in
          Publishers.Merge6(
            env.ints(), env.ints(), env.ints(), env.ints(), env.ints(), env.ints())
        }
      ]),
    .generic(
      "Publishers.Merge7",
      [
        CaseBuilder("Merge7", traits: .timingDependent) { env in
          Publishers.Merge7(
            env.ints(), env.ints(), env.ints(), env.ints(), env.ints(), env.ints(), env.ints())
        }
      ]),
    .generic(
      "Publishers.Merge8",
      [
        CaseBuilder("Merge8", traits: .timingDependent) { env in
          Publishers.Merge8(
            env.ints(), env.ints(), env.ints(), env.ints(), env.ints(), env.ints(), env.ints(),
            env.ints())
        }
      ]),
    .generic(
      "Publishers.MergeMany",
      [
        CaseBuilder("MergeMany", traits: .timingDependent) { env in
          Publishers.MergeMany((0..<3).map { _ in env.ints() })
        },
        CaseBuilder("MergeMany of one") { env in Publishers.MergeMany([env.ints()]) },
      ]),
    .generic(
      "Publishers.MakeConnectable",
      [
        CaseBuilder("makeConnectable, connected", traits: [.keepsUpstream, .timingDependent]) {
          env in
          let connectable = env.neverFailingInts().makeConnectable()
          env.retain(AnyCancellable(connectable.connect()))
          return connectable
        }
      ]),
    .generic(
      "Publishers.Autoconnect",
      [
        CaseBuilder("makeConnectable().autoconnect()", traits: .timingDependent) { env in
          env.neverFailingInts().makeConnectable().autoconnect()
        }
      ]),
  ]
}
