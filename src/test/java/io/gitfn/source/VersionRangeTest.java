package io.gitfn.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class VersionRangeTest {

  @ParameterizedTest(name = "{0} admits {1}: {2}")
  @CsvSource(delimiter = ';', value = {
      "1.2.3            ; 1.2.3        ; true",
      "1.2.3            ; v1.2.3       ; true",
      "1.2.3            ; 1.2.4        ; false",
      "=1.2.3           ; 1.2.3        ; true",
      ">=1.0.0 <2.0.0   ; 1.0.0        ; true",
      ">=1.0.0 <2.0.0   ; 1.99.99      ; true",
      ">=1.0.0 <2.0.0   ; 2.0.0        ; false",
      ">=1.0.0 <2.0.0   ; 0.9.9        ; false",
      ">= 1.0.0, < 2.0.0 ; 1.5.0       ; true",
      "^1.2             ; 1.2.0        ; true",
      "^1.2             ; 1.9.0        ; true",
      "^1.2             ; 2.0.0        ; false",
      "^1.2             ; 1.1.9        ; false",
      "^1.2.3           ; 1.2.2        ; false",
      "^0.2.3           ; 0.2.9        ; true",
      "^0.2.3           ; 0.3.0        ; false",
      "^0.0.3           ; 0.0.4        ; false",
      "~1.2.0           ; 1.2.9        ; true",
      "~1.2.0           ; 1.3.0        ; false",
      "~1               ; 1.9.0        ; true",
      "1.x              ; 1.0.0        ; true",
      "1.x              ; 1.42.7       ; true",
      "1.x              ; 2.0.0        ; false",
      "1.2.x            ; 1.2.7        ; true",
      "1.2.x            ; 1.3.0        ; false",
      "1                ; 1.5.0        ; true",
      "*                ; 0.0.1        ; true",
      "*                ; 42.0.0       ; true",
      ">1.2             ; 1.2.9        ; false",
      ">1.2             ; 1.3.0        ; true",
      "<=1.2            ; 1.2.9        ; true",
      "<=1.2            ; 1.3.0        ; false",
      "1.2.3 - 2.3.4    ; 2.3.4        ; true",
      "1.2.3 - 2.3.4    ; 2.3.5        ; false",
      "1.2.3 - 2.3      ; 2.3.9        ; true",
      "^1.0.0 || ^3.0.0 ; 3.1.0        ; true",
      "^1.0.0 || ^3.0.0 ; 2.1.0        ; false",
  })
  void matchesReleases(String range, String version, boolean expected) {
    assertThat(VersionRange.parse(range).matches(SemanticVersion.parse(version).orElseThrow()))
        .isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} admits {1}: {2}")
  @CsvSource(delimiter = ';', value = {
      "^1.0.0           ; 1.1.0-beta.1   ; false",
      "*                ; 1.0.0-rc.1     ; false",
      ">=1.0.0 <2.0.0   ; 2.0.0-rc.1     ; false",
      ">=1.0.0-rc.1     ; 1.0.0-rc.2     ; true",
      ">=1.0.0-rc.1     ; 1.0.0          ; true",
      ">=1.0.0-rc.1     ; 1.0.1-rc.1     ; false",
      "^1.2.3-beta.2    ; 1.2.3-beta.10  ; true",
      "^1.2.3-beta.2    ; 1.2.3-beta.1   ; false",
      "1.0.0-rc.1       ; 1.0.0-rc.1     ; true",
  })
  void admitsPreReleasesOnlyWhenTheRangeNamesOne(String range, String version, boolean expected) {
    assertThat(VersionRange.parse(range).matches(SemanticVersion.parse(version).orElseThrow()))
        .isEqualTo(expected);
  }

  @ParameterizedTest(name = "[{index}] '{0}'")
  @ValueSource(strings = {"", "  ", "abc", ">=", "1.2.3.4", "^a.b", ">=1.0.0 <banana"})
  void rejectsWhatIsNotARange(String range) {
    assertThatThrownBy(() -> VersionRange.parse(range)).isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest(name = "{0} < {1}")
  @CsvSource({
      "1.0.0-alpha, 1.0.0-alpha.1",
      "1.0.0-alpha.1, 1.0.0-alpha.beta",
      "1.0.0-alpha.beta, 1.0.0-beta",
      "1.0.0-beta.2, 1.0.0-beta.11",
      "1.0.0-rc.1, 1.0.0",
      "1.9.0, 1.10.0",
      "1.0.0+build.9, 1.0.1",
  })
  void ordersVersionsAsSemverDoes(String lower, String higher) {
    assertThat(SemanticVersion.parse(lower).orElseThrow())
        .isLessThan(SemanticVersion.parse(higher).orElseThrow());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"1.2", "latest", "1.2.3.4", "01.2.3", "release-1.2.3"})
  void tagsThatAreNotFullVersionsAreNoVersion(String tag) {
    assertThat(SemanticVersion.parse(tag)).isEmpty();
  }
}
