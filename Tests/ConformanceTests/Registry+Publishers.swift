import CombineEx
import Foundation

extension Registry {
  // MARK: More sources

  static let morePublishers: [RegistryEntry] = [
    .generic(
      "Deferred",
      [
        CaseBuilder("Deferred", traits: .passThrough) { env in
          let canary = env.canary
          return Deferred { [unowned env] in canary.pass(env.ints()) }
        },
        CaseBuilder("deferredLift", traits: .passThrough) { env in
          let canary = env.canary
          return AnyDeferredPublisher { [unowned env] in env.ints() }
            .deferredLift { canary.pass($0).map { $0 + 1 } }
        },
      ]),
    .generic(
      "Future",
      [
        CaseBuilder("Future fulfilled later") { env in
          var fulfil: Future<Int, ConformanceError>.Promise?
          let future = Future<Int, ConformanceError> { fulfil = $0 }
          let promise = fulfil!
          env.drive(
            "the future's promise", keepAlive: future, canFail: true,
            send: { promise(.success($0)) },
            complete: { end in
              if case .failure(let id) = end {
                promise(.failure(ConformanceError(id)))
              } else {
                promise(.success(-1))
              }
            })
          return future
        },
        CaseBuilder("Future fulfilled at once") { _ in
          Future<Int, ConformanceError> { $0(.success(1)) }
        },
        CaseBuilder("Future failed at once") { _ in
          Future<Int, ConformanceError> { $0(.failure(ConformanceError(2))) }
        },
      ]),
    .generic(
      "Record",
      [
        CaseBuilder("Record(output:completion:)") { _ in
          Record<Int, ConformanceError>(output: [1, 2, 3], completion: .finished)
        },
        CaseBuilder("Record failing") { _ in
          Record<Int, ConformanceError>(output: [1], completion: .failure(ConformanceError(3)))
        },
        CaseBuilder("Record { recording }") { _ in
          Record<Int, Never> { recording in
            recording.receive(4)
            recording.receive(5)
            recording.receive(completion: .finished)
          }
        },
      ]),
    .generic(
      "Result.Publisher",
      [
        CaseBuilder("Result.success.publisher") { _ in
          Result<Int, ConformanceError>.success(8).publisher
        },
        CaseBuilder("Result.failure.publisher") { _ in
          Result<Int, ConformanceError>.failure(ConformanceError(4)).publisher
        },
      ]),
    .generic(
      "Optional.Publisher",
      [
        CaseBuilder("Optional.some.publisher") { _ in Optional(9).publisher },
        CaseBuilder("Optional.none.publisher") { _ in Int?.none.publisher },
      ]),
    .generic(
      "Published.Publisher",
      [
        CaseBuilder("@Published projected value", traits: .neverCompletes) { env in
          let model = PublishedModel()
          env.drive(
            "@Published", keepAlive: model, canFail: false, send: { model.value = $0 },
            complete: nil)
          return model.$value
        }
      ]),
    .generic(
      "ObservableObjectPublisher",
      [
        CaseBuilder("ObservableObjectPublisher", traits: .neverCompletes) { env in
          let publisher = ObservableObjectPublisher()
          env.drive(
            "ObservableObjectPublisher", keepAlive: publisher, canFail: false,
            send: { _ in publisher.send() }, complete: nil)
          return publisher
        },
        CaseBuilder("objectWillChange of an ObservableObject", traits: .neverCompletes) { env in
          let model = PublishedModel()
          env.drive(
            "@Published", keepAlive: model, canFail: false, send: { model.value = $0 },
            complete: nil)
          return model.objectWillChange
        },
      ]),
    .generic(
      "NotificationCenter.Publisher",
      [
        CaseBuilder("NotificationCenter.publisher(for:)", traits: .neverCompletes) { env in
          let center = NotificationCenter()
          let name = Notification.Name("conformance")
          env.drive(
            "NotificationCenter", keepAlive: center, canFail: false,
            send: { center.post(name: name, object: nil, userInfo: ["value": $0]) },
            complete: nil)
          return center.publisher(for: name).map { $0.userInfo?["value"] as? Int }
        }
      ]),
  ]
}

/// A model with a `@Published` property.
final class PublishedModel: ObservableObject {
  @Published var value = 0
}
