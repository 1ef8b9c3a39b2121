#include "fixture_list.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace pt2web::testing {

std::vector<std::string> fixture_names(const std::string& fixtures_dir) {
  std::vector<std::string> names;
  DIR* dir = opendir(fixtures_dir.c_str());
  if (dir == nullptr) throw std::runtime_error("cannot open fixtures folder " + fixtures_dir);
  while (dirent* e = readdir(dir)) {
    std::string name = e->d_name;
    if (name[0] != '.' && name != "README.md") names.push_back(name);
  }
  closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

bool file_exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace pt2web::testing
